# Names vulture cannot see used: read by people, pytest or reflection, not by our code.
# (vulture's allow-list format: each line "uses" a name.)
from toypoker.dynamics.ode import LimitCycle
from toypoker.game import Game
from toypoker.literature.papers import billingham, kuhn1950
from toypoker.solvers.options import Average

billingham.SOURCE  # the paper a data module transcribes (documentation)
kuhn1950.SOURCE
billingham.SEQUENCES  # App. D's betting sequences B1..B5, eq. (43), as the paper names them
LimitCycle.section_point  # a field of the frozen result (printed in --json)
Average.UNIFORM  # enum members are selected by value ("uniform", "linear", "quadratic")
Average.LINEAR
Average.QUADRATIC
pytestmark  # pytest reads module-level marks
pytest_collection_modifyitems  # a pytest hook (tests/conftest.py)
pickled_games  # a fixture taken by @pytest.mark.usefixtures (tests/conftest.py)

Game._chips  # read through __dict__ (Game refuses attribute assignment after compiling)
from toypoker.cli import _options  # noqa: E402

_options  # the typer app's callback (global --threads), called by click
from toypoker.interop import openspiel_game as og  # noqa: E402

# OpenSpiel's Python game protocol: called by pyspiel, never by our code
og._Game.make_py_observer
og._State._legal_actions
og._State._apply_action
og._State._action_to_string
og._Observer.tensor
og._Observer.set_from
og._Observer.string_from
from toypoker.cli.collusion import table7  # noqa: E402

table7  # registered by its @app.command decorator, called by click
from toypoker import __dir__, __getattr__  # noqa: E402
from toypoker.cli import LazyGroup  # noqa: E402
from toypoker.cli.acpc import import_acpc  # noqa: E402
from toypoker.cli.evaluate import eval_, verify  # noqa: E402
from toypoker.cli.export import export  # noqa: E402

__getattr__  # PEP 562: the lazy names of toypoker's flat API, called by Python
__dir__
LazyGroup.list_commands  # click calls these on the top-level group
LazyGroup.format_commands
import_acpc  # commands named in toypoker.cli.COMMANDS, loaded by name when they run
eval_
verify
export
from toypoker.cli.common import add_hidden_aliases  # noqa: E402

# a hidden alias is a click option whose attributes click reads (cli/common.py)
add_hidden_aliases.hidden
add_hidden_aliases.expose_value
from toypoker.cli.common import _Console  # noqa: E402

_Console.on_broken_pipe  # rich calls it when standard output's reader has gone
_budget  # tests/conftest.py: an autouse fixture (pytest calls it)
from toypoker.sweeps import cluster as _cluster  # noqa: E402

_cluster.nanny.auto_restart  # distributed's Nanny reads it: no restart of a killed worker
_exit_past_an_abandoned_solve  # highs.py: an atexit handler (Python calls it)

import warnings  # noqa: E402

warnings.showwarning  # the warnings module calls it (cli/__init__.py sets one-line warnings)
pytest_configure  # tests/conftest.py: a hook (pytest calls it)
