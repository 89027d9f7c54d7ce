<?php

namespace App\Http\Controllers;

use Illuminate\Http\Request;

class AppointmentController extends Controller
{
    public function __construct()
    {
        $this->middleware('auth')->except(['index']);
        $this->middleware('throttle:10,1')->only('store');
    }

    public function index(Request $request)
    {
        $day = $request->query('day');
    }

    public function show(string $id)
    {
    }

    public function store(Request $request)
    {
        $request->validate(['patient_id' => 'required', 'starts_at' => 'required|date']);
    }

    public function cancel(Request $request, string $appointment)
    {
        $reason = $request->input('reason');
    }
}
