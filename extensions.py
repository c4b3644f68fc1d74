"""Flask extensions, created unbound so that views can use them and the factory binds them."""

from flask_babel import Babel
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

migrate = Migrate()
babel = Babel()
csrf = CSRFProtect()
