<?php

namespace App\Http\Controllers\Api;

use App\Http\Controllers\Controller;
use Illuminate\Http\Request;

class PatientController extends Controller
{
    public function index()
    {
    }

    public function store(Request $request)
    {
        $request->validate(['name' => 'required', 'birth_date' => 'date']);
    }

    public function show(string $patient)
    {
    }

    public function update(Request $request, string $patient)
    {
    }
}
