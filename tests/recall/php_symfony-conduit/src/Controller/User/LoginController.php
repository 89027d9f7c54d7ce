<?php

namespace App\Controller\User;

use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\Routing\Attribute\Route;

/**
 * The json_login authenticator handles the credentials; this action only
 * runs when authentication did not happen.
 */
final class LoginController extends AbstractController
{
    #[Route('/users/login', name: 'api_users_login', methods: ['POST'])]
    public function __invoke(): JsonResponse
    {
        return $this->json(['errors' => ['credentials' => ['invalid']]], 401);
    }
}
