<?php

namespace App\Controller\Article;

use App\Dto\NewArticleRequest;
use App\Repository\ArticleRepository;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpKernel\Attribute\MapQueryParameter;
use Symfony\Component\HttpKernel\Attribute\MapRequestPayload;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Component\Security\Http\Attribute\IsGranted;

#[Route('/articles', name: 'api_articles_')]
final class ArticleController extends AbstractController
{
    public function __construct(private readonly ArticleRepository $articles)
    {
    }

    #[Route('', name: 'list', methods: ['GET'])]
    public function list(
        #[MapQueryParameter] ?string $tag = null,
        #[MapQueryParameter] ?string $author = null,
        #[MapQueryParameter] ?string $favorited = null,
        #[MapQueryParameter] int $limit = 20,
        #[MapQueryParameter] int $offset = 0,
    ): JsonResponse {
        return $this->json($this->articles->search($tag, $author, $favorited, $limit, $offset));
    }

    #[Route('/feed', name: 'feed', methods: ['GET'], priority: 10)]
    #[IsGranted('ROLE_USER')]
    public function feed(Request $request): JsonResponse
    {
        $limit = $request->query->getInt('limit', 20);
        $offset = $request->query->getInt('offset', 0);

        return $this->json($this->articles->feed($this->getUser(), $limit, $offset));
    }

    #[Route('', name: 'create', methods: ['POST'])]
    #[IsGranted('ROLE_USER')]
    public function create(#[MapRequestPayload] NewArticleRequest $payload): JsonResponse
    {
        return $this->json(['article' => $this->articles->create($payload, $this->getUser())], 201);
    }

    #[Route('/{slug}', name: 'get', methods: ['GET'])]
    public function show(string $slug): JsonResponse
    {
        return $this->json(['article' => $this->articles->findOneBySlug($slug)]);
    }

    #[Route('/{slug}', name: 'update', methods: ['PUT'])]
    #[IsGranted('ROLE_USER')]
    public function update(string $slug, Request $request): JsonResponse
    {
        $data = $request->toArray();

        return $this->json(['article' => $this->articles->update($slug, $data['article'] ?? [])]);
    }

    #[Route('/{slug}', name: 'delete', methods: ['DELETE'])]
    #[IsGranted('ROLE_USER')]
    public function delete(string $slug): JsonResponse
    {
        $this->articles->removeBySlug($slug);

        return $this->json(null, 204);
    }
}
