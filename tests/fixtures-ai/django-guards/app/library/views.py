from rest_framework import generics, serializers, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAdminUser, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from .permissions import IsLibrarian


class BookSerializer(serializers.Serializer):
    title = serializers.CharField()
    isbn = serializers.CharField()


class LibrarianView(generics.GenericAPIView):
    permission_classes = [IsLibrarian]


class BookViewSet(viewsets.ModelViewSet):
    serializer_class = BookSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    @action(detail=True, methods=["post"], permission_classes=[IsAdminUser])
    def withdraw(self, request, pk=None):
        return Response()

    @action(detail=False, methods=["get"])
    def recent(self, request):
        return Response()


class ShelfList(LibrarianView, generics.ListCreateAPIView):
    serializer_class = BookSerializer


class StatsView(generics.RetrieveAPIView):
    def get(self, request):
        return Response()


@api_view(["GET"])
@permission_classes([AllowAny])
def health(request):
    return Response({"ok": True})


@api_view(["POST"])
def borrow(request):
    book = request.data.get("book")
    return Response()
