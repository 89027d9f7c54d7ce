<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\Tag;

class TagsController extends Controller
{
    public function list()
    {
        return ['tags' => Tag::pluck('name')];
    }
}
