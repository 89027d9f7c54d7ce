<?php

namespace Tests\Feature;

use Illuminate\Support\Facades\Route;
use Tests\TestCase;

class ArticleTest extends TestCase
{
    public function test_list(): void
    {
        Route::get('api/test-only', fn () => 'nope');
        $this->getJson('/api/articles')->assertOk();
    }
}
