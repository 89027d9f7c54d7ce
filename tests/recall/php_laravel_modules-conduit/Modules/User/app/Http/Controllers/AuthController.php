<?php

namespace Modules\User\Http\Controllers;

use App\Http\Controllers\Controller;
use Illuminate\Http\Request;

class AuthController extends Controller
{
    public function register(Request $request)
    {
        $data = $request->validate([
            'user.username' => 'required',
            'user.email' => 'required|email',
            'user.password' => 'required',
        ]);

        return response()->json($data, 201);
    }

    public function login(Request $request)
    {
        return response()->json(['email' => $request->input('user.email')]);
    }
}
