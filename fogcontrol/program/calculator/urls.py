app_name = "calculator"

urlpatterns: list = []
