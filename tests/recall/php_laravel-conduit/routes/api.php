<?php

use App\Http\Controllers\Api\ArticleController;
use App\Http\Controllers\Api\AuthController;
use App\Http\Controllers\Api\CommentsController;
use App\Http\Controllers\Api\FavoritesController;
use App\Http\Controllers\Api\ProfileController;
use App\Http\Controllers\Api\TagsController;
use App\Http\Controllers\Api\UserController;
use Illuminate\Support\Facades\Route;

/*
|--------------------------------------------------------------------------
| API Routes
|--------------------------------------------------------------------------
|
| These routes are loaded by the RouteServiceProvider within a group which
| is assigned the "api" middleware group and the "/api" prefix.
|
*/

Route::name('api.')->group(function () {
    Route::name('users.')->group(function () {
        Route::middleware('auth:api')->group(function () {
            Route::get('user', [UserController::class, 'show'])->name('current');
            Route::put('user', [UserController::class, 'update'])->name('update');
        });

        Route::post('users/login', [AuthController::class, 'login'])->name('login');
        Route::post('users', [AuthController::class, 'register'])->name('register');
    });

    Route::prefix('profiles')->name('profiles.')->group(function () {
        Route::get('{username}', [ProfileController::class, 'show'])->name('get');

        Route::middleware('auth:api')->group(function () {
            Route::post('{username}/follow', [ProfileController::class, 'follow'])->name('follow');
            Route::delete('{username}/follow', [ProfileController::class, 'unfollow'])->name('unfollow');
        });
    });

    Route::prefix('articles')->name('articles.')->group(function () {
        Route::middleware('auth:api')->group(function () {
            Route::get('feed', [ArticleController::class, 'feed'])->name('feed');
            Route::post('/', [ArticleController::class, 'create'])->name('create');

            Route::prefix('{slug}')->group(function () {
                Route::put('/', [ArticleController::class, 'update'])->name('update');
                Route::delete('/', [ArticleController::class, 'delete'])->name('delete');

                Route::name('comments.')->group(function () {
                    Route::post('comments', [CommentsController::class, 'create'])->name('create');
                    Route::delete('comments/{id}', [CommentsController::class, 'delete'])->name('delete');
                });

                Route::name('favorites.')->controller(FavoritesController::class)->group(function () {
                    Route::post('favorite', 'add')->name('add');
                    Route::delete('favorite', 'remove')->name('remove');
                });
            });
        });

        Route::get('/', [ArticleController::class, 'list'])->name('list');
        Route::get('{slug}', [ArticleController::class, 'show'])->name('get');
        Route::get('{slug}/comments', [CommentsController::class, 'list'])->name('comments.getAll');
    });

    // Route::get('tags/popular', [TagsController::class, 'popular']);
    Route::get('tags', [TagsController::class, 'list'])->name('tags.list');
});
