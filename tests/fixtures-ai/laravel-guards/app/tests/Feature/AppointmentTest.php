<?php

namespace Tests\Feature;

use Tests\TestCase;

class AppointmentTest extends TestCase
{
    public function test_index_is_public(): void
    {
        $this->get('/appointments')->assertOk();
    }
}
