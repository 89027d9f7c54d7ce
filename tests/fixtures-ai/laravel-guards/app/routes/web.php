<?php

use App\Http\Controllers\AppointmentController;
use App\Http\Controllers\DashboardController;
use App\Http\Controllers\ReportController;
use Illuminate\Support\Facades\Route;

Route::get('/', function () {
    return view('welcome');
});

Route::middleware(['auth', 'verified'])->group(function () {
    Route::get('/dashboard', [DashboardController::class, 'index']);
    Route::get('/status', [DashboardController::class, 'status'])->withoutMiddleware('auth');

    Route::prefix('clinic')->middleware('role:doctor')->group(function () {
        Route::post('/notes', [DashboardController::class, 'storeNote']);
    });
});

Route::resource('appointments', AppointmentController::class)->only(['index', 'show', 'store']);

Route::put('/appointments/{appointment}/cancel', [AppointmentController::class, 'cancel'])
    ->can('cancel', 'appointment');

Route::get('/reports', [ReportController::class, 'index']);
Route::post('/reports/export', [ReportController::class, 'export']);

// Route::get('/debug', [DashboardController::class, 'debug'])->middleware('auth');
