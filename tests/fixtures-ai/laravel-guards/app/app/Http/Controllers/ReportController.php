<?php

namespace App\Http\Controllers;

use Illuminate\Http\Request;
use Illuminate\Routing\Controllers\HasMiddleware;
use Illuminate\Routing\Controllers\Middleware;

class ReportController extends Controller implements HasMiddleware
{
    public static function middleware(): array
    {
        return [
            'auth',
            new Middleware('can:export,App\Models\Report', only: ['export']),
            new Middleware('throttle:6,1', except: ['index']),
        ];
    }

    public function index(Request $request)
    {
        $month = $request->query('month');
    }

    public function export(Request $request)
    {
        $request->validate(['format' => 'required|in:csv,pdf']);
    }
}
