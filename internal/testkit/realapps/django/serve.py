# Sets the shop up in a fresh SQLite file (the clerk, 45 products) and
# serves it on a free loopback port, which it prints first. It ends when its
# standard input closes, so it never outlives the test that started it.
import os
import sys
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop_site.settings")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from shop.models import Product  # noqa: E402

call_command("makemigrations", "shop", verbosity=0)
call_command("migrate", verbosity=0)
get_user_model().objects.create_superuser("clerk", "clerk@example.com", "unused-here")
for i in range(1, 46):
    Product.objects.create(name="Product %02d" % i, price="%d.50" % (i * 3))


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


srv = make_server("127.0.0.1", 0, StaticFilesHandler(get_wsgi_application()), server_class=Server, handler_class=Quiet)
print(srv.server_port, flush=True)


def end_with_stdin():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=end_with_stdin, daemon=True).start()
srv.serve_forever()
