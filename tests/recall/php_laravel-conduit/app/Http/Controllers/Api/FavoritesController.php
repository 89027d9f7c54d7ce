<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\Article;
use Illuminate\Http\Request;

class FavoritesController extends Controller
{
    public function add(Request $request, string $slug)
    {
        $article = Article::whereSlug($slug)->firstOrFail();
        $request->user()->favorites()->syncWithoutDetaching($article);

        return $article;
    }

    public function remove(Request $request, string $slug)
    {
        $article = Article::whereSlug($slug)->firstOrFail();
        $request->user()->favorites()->detach($article);

        return $article;
    }
}
