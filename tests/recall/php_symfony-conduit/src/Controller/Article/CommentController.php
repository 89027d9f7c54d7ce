<?php

namespace App\Controller\Article;

use App\Repository\CommentRepository;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Component\Security\Http\Attribute\IsGranted;

#[Route('/articles/{slug}/comments', name: 'api_comments_')]
final class CommentController extends AbstractController
{
    #[Route('', name: 'list', methods: ['GET'])]
    public function list(string $slug, CommentRepository $comments): JsonResponse
    {
        return $this->json(['comments' => $comments->forArticle($slug)]);
    }

    #[Route('', name: 'create', methods: ['POST'])]
    #[IsGranted('ROLE_USER')]
    public function create(string $slug, Request $request, CommentRepository $comments): JsonResponse
    {
        $body = $request->toArray()['comment']['body'] ?? '';

        return $this->json(['comment' => $comments->add($slug, $body, $this->getUser())]);
    }

    #[Route('/{id<\d+>}', name: 'delete', methods: ['DELETE'])]
    #[IsGranted('ROLE_USER')]
    public function delete(string $slug, int $id, CommentRepository $comments): JsonResponse
    {
        $comments->remove($id);

        return $this->json(null, 204);
    }
}
