<?php

namespace App\Dto;

final class NewUserRequest
{
    public function __construct(
        public readonly array $user = [],
    ) {
    }
}
