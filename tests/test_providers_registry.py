"""The one table of providers (``provider_names.PROVIDERS``) and what is derived from it.

Every list of providers the code offers is read from the table: the ``provider=`` names, the
CLI's choices, the adapters ``provider_definitions`` and the lock use, the reply shapes
``dispatch`` answers and the binder's rules. The one list written out by hand is the
``DispatchProvider`` Literal (a type cannot be derived at run time): it is held to the table here.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import get_args

import pytest

from onellm_runtime import provider_names
from onellm_runtime.cli.main import main
from onellm_runtime.locking.lockfile import FORMS
from onellm_runtime.provider_names import NULL_MEANS_ABSENT, PROVIDER_NAMES, PROVIDERS, DispatchProvider
from onellm_runtime.providers import PAIR_PROVIDERS, dispatch, provider_definitions
from onellm_runtime.providers._decode import PAIR_PROVIDERS as DECODED
from onellm_runtime.providers.registry import ADAPTERS, BINDING, REPLIES


def test_the_names_come_from_the_table() -> None:
    assert PROVIDER_NAMES == tuple(p.name for p in PROVIDERS)
    assert tuple(ADAPTERS) == PROVIDER_NAMES
    assert tuple(FORMS) == PROVIDER_NAMES
    assert PAIR_PROVIDERS is DECODED
    assert PAIR_PROVIDERS == {p.name for p in PROVIDERS if p.entry_pairs}
    assert NULL_MEANS_ABSENT == {p.name for p in PROVIDERS if p.null_means_absent}


def test_the_dispatch_literal_is_the_reply_shapes() -> None:
    assert get_args(DispatchProvider) == tuple(REPLIES)
    assert {BINDING[shape] for shape in REPLIES} == set(PROVIDER_NAMES) - {
        p.name for p in PROVIDERS if not ADAPTERS[p.name].replies
    }


def test_the_cli_offers_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["schemas", "--provider", "cohere", "app"])
    offered = ", ".join(repr(name) for name in PROVIDER_NAMES)
    assert f"invalid choice: 'cohere' (choose from {offered})" in capsys.readouterr().err


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_each_row_reaches_its_adapter(name: str) -> None:
    entry = {"name": "ping", "description": "Ping.", "input_schema": {"type": "object", "properties": {}}}
    assert provider_definitions(name, [entry]) == [ADAPTERS[name].form(entry)]


def test_a_name_not_in_the_table_is_refused_everywhere() -> None:
    names = ", ".join(PROVIDER_NAMES)
    with pytest.raises(ValueError, match=f"^provider must be one of {names}, not 'cohere'$"):
        provider_definitions("cohere", [])
    with pytest.raises(ValueError, match=f"^provider must be None or one of {names}, not 'cohere'$"):
        provider_names.check_provider("cohere")
    with pytest.raises(ValueError, match=f"^provider must be one of {', '.join(REPLIES)}, not 'cohere'$"):
        asyncio.run(dispatch("cohere", {}, []))  # type: ignore[arg-type]


def test_the_names_load_no_adapter() -> None:
    code = (
        "import sys, onellm_runtime.provider_names as n; n.check_provider('gemini'); "
        "print(any(m.startswith('onellm_runtime.providers') for m in sys.modules))"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "False"
