<?php

namespace App\Controller\Profile;

use App\Entity\User;
use Symfony\Bridge\Doctrine\Attribute\MapEntity;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Component\Security\Http\Attribute\IsGranted;

#[Route('/profiles/{username}', name: 'api_profiles_')]
final class ProfileController extends AbstractController
{
    #[Route('', name: 'get', methods: ['GET'])]
    public function show(#[MapEntity(mapping: ['username' => 'username'])] User $profile): JsonResponse
    {
        return $this->json(['profile' => $profile]);
    }

    #[Route('/follow', name: 'follow', methods: ['POST'])]
    #[IsGranted('ROLE_USER')]
    public function follow(#[MapEntity(mapping: ['username' => 'username'])] User $profile): JsonResponse
    {
        $this->getUser()->follow($profile);

        return $this->json(['profile' => $profile]);
    }

    #[Route('/follow', name: 'unfollow', methods: ['DELETE'])]
    #[IsGranted('ROLE_USER')]
    public function unfollow(#[MapEntity(mapping: ['username' => 'username'])] User $profile): JsonResponse
    {
        $this->getUser()->unfollow($profile);

        return $this->json(['profile' => $profile]);
    }
}
