app_name = "registry"

urlpatterns: list = []
