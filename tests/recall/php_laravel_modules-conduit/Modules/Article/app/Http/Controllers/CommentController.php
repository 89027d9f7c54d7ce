<?php

namespace Modules\Article\Http\Controllers;

use App\Http\Controllers\Controller;
use Illuminate\Http\Request;
use Modules\Article\Models\Article;
use Modules\Article\Models\Comment;

class CommentController extends Controller
{
    public function index(Article $article)
    {
        return $article->comments;
    }

    public function store(Request $request, Article $article)
    {
        return $article->comments()->create(['body' => $request->input('comment.body')]);
    }

    public function destroy(Article $article, Comment $comment)
    {
        $comment->delete();

        return response()->noContent();
    }
}
