"""Adapters: every ruleset and mode as an OpenSpiel game, PettingZoo
environments and a Gymnasium environment — one idea, a rulelang game seen
through the agent frameworks' APIs, with hidden information kept hidden.

    from interpreter.adapters import load_game, aec_env, parallel_env, gymnasium_env

They drive a `Game` only through its public API, the view and the sampler
(`driver.py`), with a fixed action space (`actions.py`, `domains.py`) and
observation tensor (`observations.py`) read off the IR. The frameworks are
the optional extra `[rl]`; `actions`, `domains`, `observations` and `driver`
need none of them. Nothing in rulelang imports this package, except the
command line for `rulelang show --observation`.
"""


def __getattr__(name: str):
    # each framework is imported only when its adapter is asked for
    if name == "load_game":
        from .openspiel_game import load_game
        return load_game
    if name in ("aec_env", "parallel_env"):
        from . import pettingzoo_env
        return getattr(pettingzoo_env, name)
    if name == "gymnasium_env":
        from .gymnasium_learner import gymnasium_env
        return gymnasium_env
    raise AttributeError(name)
