"""The lock's token estimate (``onellm_runtime/locking/tokens.py``) against a real tokenizer.

Every tool of the test corpus (``test-data/golden/*.json``, written by hand from the contract)
in each provider form the lock records, measured as the lock measures it (the form's compact
JSON), with OpenAI's ``o200k_base`` and ``cl100k_base`` from the ``bpe-openai`` package, whose
vocabularies ship inside its wheel (``pip install -e '.[bench]'``; nothing is downloaded).
The estimator's two constants were chosen on this corpus, so ``--lock FILE`` measures a lock's
forms as well (``onellm lock examples -o FILE`` gives a set the constants never saw).
Prints, per encoding and per form, the error of the estimate: its mean (bias), mean absolute
and worst relative error per definition, and the ratio of the totals. docs/ci.md quotes it.

    python benchmarks/token_estimate.py [--lock onellm.lock.json]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from onellm_runtime.locking.lockfile import FORMS  # noqa: E402
from onellm_runtime.locking.tokens import estimate_text_tokens, form_text  # noqa: E402
from onellm_runtime.providers import ProviderError  # noqa: E402

ENCODINGS = ("o200k_base", "cl100k_base")


def corpus_forms() -> dict[str, list[str]]:
    """Each provider form's texts, over every golden tool."""
    import warnings

    texts: dict[str, list[str]] = {name: [] for name in FORMS}
    for golden in sorted((ROOT / "test-data" / "golden").glob("*.json")):
        for entry in json.loads(golden.read_text(encoding="utf-8")):
            for name, make in FORMS.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        texts[name].append(form_text(dict(make(entry))))
                    except ProviderError:
                        continue
    return texts


def lock_forms(path: str) -> dict[str, list[str]]:
    """Each provider form's texts in a lock file."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    texts: dict[str, list[str]] = {name: [] for name in FORMS}
    for tools in document["modules"].values():
        for tool in tools.values():
            for name, record in tool["providers"].items():
                if "form" in record:
                    texts[name].append(form_text(record["form"]))
    return texts


def main(argv: list[str]) -> int:
    try:
        import bpe_openai
    except ModuleNotFoundError:
        print("needs the tokenizer: pip install -e '.[bench]' (bpe-openai)", file=sys.stderr)
        return 2
    texts = lock_forms(argv[argv.index("--lock") + 1]) if "--lock" in argv else corpus_forms()
    print(f"{'encoding':<12} {'form':<10} {'n':>5} {'bias':>7} {'mean |err|':>11} {'worst':>7} {'totals':>7}")
    for encoding in ENCODINGS:
        tokenizer = bpe_openai.get_encoding(encoding)
        everything: list[tuple[int, int]] = []
        for form, items in [*texts.items(), ("all", [t for ts in texts.values() for t in ts])]:
            pairs = [(len(tokenizer.encode(t)), estimate_text_tokens(t)) for t in items]
            if form != "all":
                everything += pairs
            errors = [(estimate - real) / real for real, estimate in pairs]
            ratio = sum(e for _, e in pairs) / sum(r for r, _ in pairs)
            print(
                f"{encoding:<12} {form:<10} {len(pairs):>5} {statistics.mean(errors):>+7.1%}"
                f" {statistics.mean(abs(e) for e in errors):>11.1%} {max(errors, key=abs):>+7.1%} {ratio:>7.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
