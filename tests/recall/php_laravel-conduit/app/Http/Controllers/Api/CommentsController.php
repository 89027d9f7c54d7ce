<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use App\Models\Article;
use App\Models\Comment;
use Illuminate\Http\Request;

class CommentsController extends Controller
{
    public function list(string $slug)
    {
        return Article::whereSlug($slug)->firstOrFail()->comments;
    }

    public function create(Request $request, string $slug)
    {
        $article = Article::whereSlug($slug)->firstOrFail();

        return $article->comments()->create([
            'author_id' => $request->user()->getKey(),
            'body' => $request->input('comment.body'),
        ]);
    }

    public function delete(string $slug, int $id)
    {
        Comment::findOrFail($id)->delete();

        return response()->noContent();
    }
}
