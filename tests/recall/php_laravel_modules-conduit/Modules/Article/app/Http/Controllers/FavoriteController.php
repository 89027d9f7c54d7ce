<?php

namespace Modules\Article\Http\Controllers;

use App\Http\Controllers\Controller;
use Illuminate\Http\Request;
use Modules\Article\Models\Article;

class FavoriteController extends Controller
{
    public function store(Request $request, Article $article)
    {
        $request->user()->favorites()->attach($article);

        return $article;
    }

    public function destroy(Request $request, Article $article)
    {
        $request->user()->favorites()->detach($article);

        return $article;
    }
}
