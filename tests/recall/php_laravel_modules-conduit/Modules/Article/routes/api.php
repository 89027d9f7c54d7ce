<?php

use Illuminate\Support\Facades\Route;
use Modules\Article\Http\Controllers\ArticleController;
use Modules\Article\Http\Controllers\CommentController;
use Modules\Article\Http\Controllers\FavoriteController;

Route::get('articles/feed', [ArticleController::class, 'feed'])->middleware('auth:sanctum');

Route::apiResource('articles', ArticleController::class)
    ->only(['index', 'show'])
    ->scoped(['article' => 'slug']);

Route::middleware('auth:sanctum')->group(function () {
    Route::apiResource('articles', ArticleController::class)
        ->only(['store', 'update', 'destroy'])
        ->scoped(['article' => 'slug']);

    Route::apiResource('articles.comments', CommentController::class)
        ->only(['store', 'destroy'])
        ->scoped(['article' => 'slug']);

    Route::post('articles/{article:slug}/favorite', [FavoriteController::class, 'store']);
    Route::delete('articles/{article:slug}/favorite', [FavoriteController::class, 'destroy']);
});

Route::get('articles/{article:slug}/comments', [CommentController::class, 'index']);
