use super::Django;

crate::test_support::runner!(
    Django,
    crate::test_support::Style {
        at: crate::test_support::At::PathLine,
        ..crate::test_support::SPACED
    }
);

#[test]
fn tech_declaration() {
    crate::test_support::assert_tech(&Django, "python_django", "django");
}

#[test]
fn include_chains_regexes_and_function_views() {
    let root = "from django.contrib import admin\nfrom django.urls import include, path, re_path\nfrom blog import views as blog_views\n\nAPI = 'api/v1/'\n\napi_patterns = [\n    path('ping/', blog_views.ping),\n]\n\nurlpatterns = [\n    path('admin/', admin.site.urls),  # Django's own admin: not reported\n    path('blog/', include('blog.urls')),\n    path(API, include(api_patterns)),\n    re_path(r'^legacy/(?P<year>[0-9]{4})/$', blog_views.archive),\n    path('shop/', include([\n        path('cart/', blog_views.cart),\n    ])),\n    # path('gone/', blog_views.gone),\n]\nurlpatterns += i18n_patterns(path('about/', blog_views.archive))\n";
    let blog_urls = "from django.urls import path\nfrom . import views\n\napp_name = 'blog'\nurlpatterns = [\n    path('', views.index, name='index'),\n    path('<int:pk>/', views.detail),\n    path('<slug:slug>/comment/', views.comment),\n]\n";
    let views = "from django.http import JsonResponse\nfrom django.views.decorators.http import require_http_methods, require_POST\n\ndef index(request):\n    q = request.GET.get('q')\n    return JsonResponse({})\n\n@require_http_methods(['GET', 'DELETE'])\ndef detail(request, pk):\n    return JsonResponse({})\n\n@require_POST\ndef comment(request, slug):\n    body = request.POST['body']\n    token = request.META.get('HTTP_X_CSRF_TOKEN')\n    return JsonResponse({})\n\ndef ping(request):\n    if request.method == 'POST':\n        return JsonResponse({'pong': request.COOKIES.get('sid')})\n    return JsonResponse({})\n\ndef archive(request, year):\n    return JsonResponse({})\n\ndef cart(request):\n    f = request.FILES['upload']\n    return JsonResponse({})\n";
    assert_eq!(
        run(&[
            ("mysite/urls.py", root),
            ("blog/urls.py", blog_urls),
            ("blog/views.py", views),
        ]),
        vec![
            "DELETE /blog/{pk}/ @blog/urls.py:7 []",
            "GET /about/ @mysite/urls.py:21 []",
            "GET /api/v1/ping/ @mysite/urls.py:8 [cookie:sid]",
            "GET /blog/ @blog/urls.py:6 [query:q]",
            "GET /blog/{pk}/ @blog/urls.py:7 []",
            "GET /legacy/{year}/ @mysite/urls.py:15 []",
            "GET /shop/cart/ @mysite/urls.py:17 [file:upload]",
            "POST /api/v1/ping/ @mysite/urls.py:8 [cookie:sid]",
            "POST /blog/{slug}/comment/ @blog/urls.py:8 [form:body, header:X-Csrf-Token]",
            "POST /shop/cart/ @mysite/urls.py:17 [file:upload]",
        ]
    );
}

#[test]
fn class_based_views() {
    let urls = "from django.urls import path\nfrom .views import ArticleCreate, ArticleList, Ping, Profile\n\nurlpatterns = [\n    path('articles/', ArticleList.as_view()),\n    path('articles/new/', ArticleCreate.as_view()),\n    path('ping/', Ping.as_view()),\n    path('me/', login_required(Profile.as_view())),\n    path('login/', auth_views.LoginView.as_view()),\n]\n";
    let views = "from django import forms\nfrom django.views import View\nfrom django.views.generic import CreateView, ListView\n\nclass ArticleForm(forms.ModelForm):\n    captcha = forms.CharField()\n    class Meta:\n        model = Article\n        fields = ['title', 'body']\n\nclass ArticleList(ListView):\n    model = Article\n\nclass ArticleCreate(CreateView):\n    form_class = ArticleForm\n\nclass Base(View):\n    def get(self, request):\n        q = self.request.GET.get('q')\n\nclass Ping(Base):\n    http_method_names = ['get', 'post']\n    def post(self, request):\n        pass\n    def delete(self, request):\n        pass\n\nclass Profile(View):\n    pass\n";
    assert_eq!(
        run(&[("app/urls.py", urls), ("app/views.py", views)]),
        vec![
            "GET /articles/ @app/urls.py:5 []",
            "GET /articles/new/ @app/urls.py:6 []",
            "GET /login/ @app/urls.py:9 []",
            "GET /me/ @app/urls.py:8 []",
            "GET /ping/ @app/urls.py:7 [query:q]",
            "POST /articles/new/ @app/urls.py:6 [form:title, form:body, form:captcha]",
            "POST /login/ @app/urls.py:9 []",
            "POST /ping/ @app/urls.py:7 []",
        ]
    );
}

#[test]
fn drf_routers_viewsets_and_actions() {
    let urls = "from django.urls import include, path\nfrom rest_framework.routers import DefaultRouter, SimpleRouter\nfrom shop import views\n\nrouter = DefaultRouter()\nrouter.register(r'users', views.UserViewSet, basename='user')\nrouter.register('tags', views.TagViewSet)\nrouter.register(r'orders', views.OrderViewSet)\n\nflat = SimpleRouter(trailing_slash=False)\nflat.register('notes', views.NoteViewSet)\n\nurlpatterns = [\n    path('api/', include(router.urls)),\n    path('products/<int:pk>/', views.ProductDetail.as_view()),\n    path('stats/', views.stats),\n]\nurlpatterns += flat.urls\n";
    let views = "from rest_framework import generics, mixins, serializers, viewsets\nfrom rest_framework.decorators import action, api_view\n\nclass UserSerializer(serializers.ModelSerializer):\n    password = serializers.CharField(write_only=True)\n    full_name = serializers.SerializerMethodField()\n    class Meta:\n        model = User\n        fields = ['id', 'username', 'email', 'password', 'date_joined']\n        read_only_fields = ['date_joined']\n\nclass UserViewSet(viewsets.ModelViewSet):\n    serializer_class = UserSerializer\n    filterset_fields = ['is_active']\n    search_fields = ['username']\n\n    @action(detail=True, methods=['post'], url_path='set-password')\n    def set_password(self, request, pk=None):\n        pw = request.data['password']\n\n    @action(detail=False)\n    def recent(self, request):\n        pass\n\nclass TagViewSet(viewsets.ReadOnlyModelViewSet):\n    lookup_field = 'slug'\n\nclass OrderViewSet(mixins.CreateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):\n    http_method_names = ['get']\n\nclass NoteViewSet(viewsets.ViewSet):\n    def list(self, request):\n        page = request.query_params.get('page')\n    def destroy(self, request, pk=None):\n        pass\n\nclass ProductDetail(generics.RetrieveUpdateAPIView):\n    serializer_class = UserSerializer\n\n@api_view(['GET', 'POST'])\ndef stats(request):\n    x = request.data.get('range')\n";
    assert_eq!(
        run(&[("shop/urls.py", urls), ("shop/views.py", views)]),
        vec![
            "DELETE /api/users/{pk}/ @shop/urls.py:6 []",
            "DELETE /notes/{pk} @shop/urls.py:11 []",
            "GET /api/orders/ @shop/urls.py:8 []",
            "GET /api/tags/ @shop/urls.py:7 []",
            "GET /api/tags/{slug}/ @shop/urls.py:7 []",
            "GET /api/users/ @shop/urls.py:6 [query:is_active, query:search]",
            "GET /api/users/recent/ @shop/views.py:21 []",
            "GET /api/users/{pk}/ @shop/urls.py:6 []",
            "GET /notes @shop/urls.py:11 [query:page]",
            "GET /products/{pk}/ @shop/urls.py:15 []",
            "GET /stats/ @shop/urls.py:16 [json:range]",
            "PATCH /api/users/{pk}/ @shop/urls.py:6 [json:username, json:email, json:password]",
            "PATCH /products/{pk}/ @shop/urls.py:15 [json:username, json:email, json:password]",
            "POST /api/users/ @shop/urls.py:6 [json:username, json:email, json:password]",
            "POST /api/users/{pk}/set-password/ @shop/views.py:17 [json:password]",
            "POST /stats/ @shop/urls.py:16 [json:range]",
            "PUT /api/users/{pk}/ @shop/urls.py:6 [json:username, json:email, json:password]",
            "PUT /products/{pk}/ @shop/urls.py:15 [json:username, json:email, json:password]",
        ]
    );
}

#[test]
fn nested_routers_and_regex_action_paths() {
    let urlconf = "from django.urls import include, path\nfrom rest_framework_nested import routers\nfrom . import views\n\nrouter = routers.SimpleRouter()\nrouter.register(r'projects', views.ProjectViewSet)\ntasks = routers.NestedSimpleRouter(router, r'projects', lookup='project')\ntasks.register(r'tasks', views.TaskViewSet, basename='project-tasks')\n\nurlpatterns = [\n    path('', include(router.urls)),\n    path('', include(tasks.urls)),\n]\n";
    let views = "from rest_framework import viewsets, mixins\nfrom rest_framework.decorators import action\n\nclass ProjectViewSet(viewsets.ReadOnlyModelViewSet):\n    @action(detail=True, methods=['put'], url_path=r'members/(?P<member_id>[^/.]+)')\n    def member(self, request, pk=None, member_id=None):\n        pass\n\nclass TaskViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):\n    pass\n";
    assert_eq!(
        urls(&[("app/urls.py", urlconf), ("app/views.py", views)]),
        vec![
            "GET /projects/",
            "GET /projects/{pk}/",
            "GET /projects/{project_pk}/tasks/",
            "PUT /projects/{pk}/members/{member_id}/",
        ]
    );
}

#[test]
fn test_files_and_non_pattern_lists_are_ignored() {
    let test = "from django.urls import path\nurlpatterns = [path('t/', v)]\n";
    let other = "from django.db import models\nx = y\nitems = [path('no/', v)]\n";
    assert_eq!(
        urls(&[("app/tests/urls.py", test), ("app/models.py", other)]),
        Vec::<String>::new()
    );
}
