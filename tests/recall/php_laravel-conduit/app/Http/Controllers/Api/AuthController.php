<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\User;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Auth;

class AuthController extends Controller
{
    public function register(Request $request)
    {
        $attributes = $request->validate([
            'user.username' => 'required|string|max:255|unique:users,username',
            'user.email' => 'required|email|unique:users,email',
            'user.password' => 'required|min:8',
        ]);

        $user = User::create($attributes['user']);

        return response()->json(['user' => $user], 201);
    }

    public function login(Request $request)
    {
        $credentials = $request->input('user');

        if (! Auth::attempt($credentials)) {
            return response()->json(['message' => 'Invalid credentials'], 401);
        }

        return response()->json(['user' => Auth::user()]);
    }
}
