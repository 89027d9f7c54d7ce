<?php
ini_set('display_errors', '1');
// ini_set('display_errors', '0') in production
