<?php

use Illuminate\Support\Facades\Route;
