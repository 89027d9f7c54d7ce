<?php

namespace App\Controller;

use App\Repository\TagRepository;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\Routing\Attribute\Route;

final class TagController extends AbstractController
{
    #[Route('/tags', name: 'api_tags_list', methods: ['GET'])]
    public function __invoke(TagRepository $tags): JsonResponse
    {
        return $this->json(['tags' => $tags->allNames()]);
    }
}
