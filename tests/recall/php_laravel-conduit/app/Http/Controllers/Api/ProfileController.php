<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\User;
use Illuminate\Http\Request;

class ProfileController extends Controller
{
    public function show(string $username)
    {
        return User::whereUsername($username)->firstOrFail();
    }

    public function follow(Request $request, string $username)
    {
        $profile = User::whereUsername($username)->firstOrFail();
        $request->user()->following()->syncWithoutDetaching($profile);

        return $profile;
    }

    public function unfollow(Request $request, string $username)
    {
        $profile = User::whereUsername($username)->firstOrFail();
        $request->user()->following()->detach($profile);

        return $profile;
    }
}
