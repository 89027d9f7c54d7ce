<?php

namespace App\Dto;

final class NewArticleRequest
{
    public function __construct(
        public readonly array $article = [],
    ) {
    }
}
