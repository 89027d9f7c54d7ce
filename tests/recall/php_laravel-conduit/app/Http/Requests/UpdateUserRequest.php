<?php

namespace App\Http\Requests;

use Illuminate\Foundation\Http\FormRequest;

class UpdateUserRequest extends FormRequest
{
    public function rules(): array
    {
        return [
            'user.username' => 'sometimes|string|max:255',
            'user.email' => 'sometimes|email',
            'user.password' => 'sometimes|min:8',
            'user.bio' => 'sometimes|nullable|string',
            'user.image' => 'sometimes|nullable|url',
        ];
    }
}
