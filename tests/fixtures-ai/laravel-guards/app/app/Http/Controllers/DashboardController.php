<?php

namespace App\Http\Controllers;

use Illuminate\Http\Request;

class DashboardController extends Controller
{
    public function index()
    {
        return view('dashboard');
    }

    public function status()
    {
        return response()->json(['up' => true]);
    }

    public function storeNote(Request $request)
    {
        $request->validate(['body' => 'required|string']);
    }
}
