<?php

namespace Modules\Profile\Http\Controllers;

use App\Http\Controllers\Controller;
use App\Models\User;
use Illuminate\Http\Request;

class ProfileController extends Controller
{
    public function show(User $user)
    {
        return $user;
    }

    public function follow(Request $request, User $user)
    {
        $request->user()->following()->attach($user);

        return $user;
    }

    public function unfollow(Request $request, User $user)
    {
        $request->user()->following()->detach($user);

        return $user;
    }
}
