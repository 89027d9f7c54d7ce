<?php

namespace Modules\Article\Http\Controllers;

use App\Http\Controllers\Controller;
use Illuminate\Http\Request;
use Modules\Article\Models\Article;

class ArticleController extends Controller
{
    public function index(Request $request)
    {
        return Article::filter($request->only(['tag', 'author', 'favorited']))
            ->limit($request->integer('limit', 20))
            ->offset($request->integer('offset'))
            ->get();
    }

    public function feed(Request $request)
    {
        return Article::feed($request->user())->limit($request->integer('limit', 20))->get();
    }

    public function show(Article $article)
    {
        return $article;
    }

    public function store(Request $request)
    {
        return $request->user()->articles()->create($request->input('article'));
    }

    public function update(Request $request, Article $article)
    {
        $article->update($request->input('article'));

        return $article;
    }

    public function destroy(Article $article)
    {
        $article->delete();

        return response()->noContent();
    }
}
