<?php

use Illuminate\Support\Facades\Route;
use Modules\Profile\Http\Controllers\ProfileController;

Route::controller(ProfileController::class)->prefix('profiles/{user:username}')->group(function () {
    Route::get('/', 'show');
    Route::post('follow', 'follow')->middleware('auth:sanctum');
    Route::delete('follow', 'unfollow')->middleware('auth:sanctum');
});
