<?php

namespace App\Controller\User;

use Doctrine\ORM\EntityManagerInterface;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Component\Security\Http\Attribute\IsGranted;

#[Route('/user', name: 'api_user_')]
#[IsGranted('IS_AUTHENTICATED_FULLY')]
final class CurrentUserController extends AbstractController
{
    #[Route('', name: 'get', methods: ['GET'])]
    public function show(): JsonResponse
    {
        return $this->json(['user' => $this->getUser()]);
    }

    #[Route('', name: 'update', methods: ['PUT'])]
    public function update(Request $request, EntityManagerInterface $em): JsonResponse
    {
        $data = $request->toArray();
        $user = $this->getUser();
        $user->setEmail($data['user']['email'] ?? $user->getEmail());
        $em->flush();

        return $this->json(['user' => $user]);
    }
}
