<?php

namespace App\Controller\Article;

use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Component\Security\Http\Attribute\IsGranted;

#[IsGranted('ROLE_USER')]
final class FavoriteController extends AbstractController
{
    #[Route('/articles/{slug}/favorite', name: 'api_articles_favorite', methods: ['POST'])]
    public function favorite(string $slug): JsonResponse
    {
        return $this->json(['article' => $slug]);
    }

    #[Route('/articles/{slug}/favorite', name: 'api_articles_unfavorite', methods: ['DELETE'])]
    public function unfavorite(string $slug): JsonResponse
    {
        return $this->json(['article' => $slug]);
    }
}
