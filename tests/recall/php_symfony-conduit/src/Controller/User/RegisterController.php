<?php

namespace App\Controller\User;

use App\Dto\NewUserRequest;
use App\Service\UserRegistrar;
use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpKernel\Attribute\MapRequestPayload;
use Symfony\Component\Routing\Attribute\Route;

#[Route('/users', name: 'api_users_register', methods: ['POST'])]
final class RegisterController extends AbstractController
{
    public function __invoke(#[MapRequestPayload] NewUserRequest $payload, UserRegistrar $registrar): JsonResponse
    {
        return $this->json(['user' => $registrar->register($payload)], 201);
    }
}
