<?php

use Illuminate\Support\Facades\Route;
use Modules\User\Http\Controllers\AuthController;
use Modules\User\Http\Controllers\UserController;

Route::prefix('users')->controller(AuthController::class)->group(function () {
    Route::post('/', 'register')->name('users.register');
    Route::post('login', 'login')->name('users.login');
});

Route::middleware('auth:sanctum')->controller(UserController::class)->group(function () {
    Route::get('user', 'show')->name('user.show');
    Route::put('user', 'update')->name('user.update');
});
