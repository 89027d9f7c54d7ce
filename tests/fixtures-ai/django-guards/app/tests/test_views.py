from django.test import TestCase


class ProfileTests(TestCase):
    def test_profile_needs_login(self):
        response = self.client.get("/account/profile/")
        self.assertEqual(response.status_code, 302)
