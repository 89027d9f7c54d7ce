<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\Article;
use Illuminate\Http\Request;

class ArticleController extends Controller
{
    protected const FILTER_LIMIT = 20;

    public function list(Request $request)
    {
        $tag = $request->query('tag');
        $author = $request->query('author');
        $favorited = $request->query('favorited');

        return Article::list(
            $request->query('limit', self::FILTER_LIMIT),
            $request->query('offset', 0)
        )->havingTag($tag)->ofAuthor($author)->favoritedBy($favorited)->get();
    }

    public function feed(Request $request)
    {
        return Article::followedBy($request->user())
            ->list($request->query('limit', self::FILTER_LIMIT), $request->query('offset', 0))
            ->get();
    }

    public function show(string $slug)
    {
        return Article::whereSlug($slug)->firstOrFail();
    }

    public function create(Request $request)
    {
        $request->validate([
            'article.title' => 'required|string|max:255',
            'article.description' => 'required|string|max:510',
            'article.body' => 'required|string',
            'article.tagList' => 'sometimes|array',
        ]);

        return $request->user()->articles()->create($request->input('article'));
    }

    public function update(Request $request, string $slug)
    {
        $article = Article::whereSlug($slug)->firstOrFail();
        $article->update($request->input('article'));

        return $article;
    }

    public function delete(string $slug)
    {
        Article::whereSlug($slug)->firstOrFail()->delete();

        return response()->noContent();
    }
}
