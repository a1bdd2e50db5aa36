"""The mypy hooks: find each tool where mypy checks the decorator call, report the core's findings.

Three calls lead to a tool, and each has a hook on its full name:

- ``@tool`` (also ``@pkg.tool``, an alias ``t = tool``): ``_ToolDecorator.__call__``,
  with the ``Decorator`` (or the ``ClassDef``, for OLT001) as context; a direct
  ``tool(fn)`` call has the ``CallExpr`` as context.
- ``@tool(...)``: the first call builds a ``_ToolFactory``, whose ``__call__`` is then
  checked with the ``Decorator`` as context.
- ``Tool.create(fn, ...)``: ``Tool.create``, with the ``CallExpr``.

Each hook finds and lowers the tool (``sites``, ``mypy_front``), runs ``diagnostics.check_tool`` /
``check_class``, and reports every finding at its location with its own error code, so
``# type: ignore[OLT002]`` and ``disable_error_code`` work. Hooks never change a type
and never raise: an unexpected shape reports nothing (set ``ONELLM_MYPY_DEBUG=1`` to
see the exception instead).

Two attribute hooks give a tool over ``@staticmethod``/``@classmethod`` the function's
own signature (see ``_wrapped_method_hook``); ``get_additional_deps`` records a digest
of each module's source so that a warm cache and the daemon see metadata changes.

Loading the plugin imports only ``codes`` and ``decorators``: on a warm cache no hook
runs, so the front end and ``onellm_runtime`` are imported when mypy parses a module that
imports onellm (``get_additional_deps`` reads that module ahead too, see ``_read_ahead``)
or on the first hook. Hooks run
more than once and possibly in several processes, so nothing they decide depends on an
earlier hook: the instance keeps only caches of pure results (parsed sources keyed by
file stamps, lowered records, which attributes wrap static or class methods), all
dropped whenever mypy parses a module again or the daemon deletes one, and per checked
module the modules its tools read (for ``get_additional_indirect_deps``, dropped too when
the module is parsed again).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from mypy.nodes import (
    ARG_POS,
    GDEF,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    Import,
    ImportAll,
    ImportFrom,
    MypyFile,
    SymbolTableNode,
    Var,
)
from mypy.options import Options
from mypy.plugin import AttributeContext, FunctionContext, MethodContext, MethodSigContext, Plugin
from mypy.types import FunctionLike, Instance, Parameters, Type, get_proper_type

from .codes import ERROR_CODES
from .decorators import CLASSMETHOD, STATIC, TOOL_CLASS, is_tool_ref, ref_fullname, tool_decorator_index

if TYPE_CHECKING:
    from .mypy_front import RecordMemo
    from .sites import LoweredTool
    from .source import SourceCache

__all__ = ["OnellmPlugin", "ERROR_CODES"]

_TOOL_CALL = "onellm_runtime.tool._ToolDecorator.__call__"
_FACTORY_CALL = "onellm_runtime.tool._ToolFactory.__call__"
_CREATE = "onellm_runtime.tool.Tool.create"
_TOOL_SET = "onellm_runtime.toolset.ToolSet"
_DIGEST_PREFIX = "onellm@"
#: mypy 2.4 asks plugins for indirect dependencies (``get_additional_indirect_deps``); before
#: that, the plugin adds them to the checker's ``module_refs``, which mypy reads at the same point
_INDIRECT_DEPS_HOOK = hasattr(Plugin, "get_additional_indirect_deps")
#: Packages whose source changes come with a new version (which mypy re-checks everything for).
_OWN = frozenset({"onellm_runtime", "onellm_mypy", "mypy", "typing_extensions"})


class OnellmPlugin(Plugin):
    """Reports the contract's OLT diagnostics while mypy checks the code."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        _follow_runtime(options)
        self._sources: SourceCache | None = None
        self._deps: dict[str, set[str]] = {}
        #: Records lowered so far; dropped whenever mypy parses a module (again).
        self._memo: RecordMemo | None = None
        #: Which attributes are tools over a static or class method (see ``_wrapped_method_hook``).
        self._wrapped: dict[str, tuple[str, Decorator] | None] = {}
        #: What each decorated definition of the module being checked lowered to, by node, the
        #: modules that read and the findings reported: mypy checks some definitions twice (a
        #: deferred ``async def``, in the same module's second pass), and the second check
        #: reports the same findings again without lowering or checking the tools again.
        #: Kept for one module only: the nodes hold the module's checker state alive, and
        #: keeping every module's until the end made mypy's collector free it all at once.
        self._lowered: dict[
            int, tuple[Decorator, list[LoweredTool], frozenset[str], list[tuple[str, Context, str]]]
        ] = {}
        self._lowered_module = ""
        #: Whether a later run reads this one's results (a cache or the daemon): only then can a
        #: module's digest re-check anything, so without one (``--no-incremental``, ``onellm
        #: check``) no module is read for it: only those that import onellm are read ahead.
        self._digests = options.incremental or options.fine_grained_incremental or options.cache_fine_grained
        #: The daemon deletes a module without parsing anything: how many modules the build
        #: had when this generation began tells a deletion (see ``_follow_deletions``).
        self._daemon = options.fine_grained_incremental
        self._generation_size = -1
        #: When set (by the extractor), each hook also keeps what it lowered, by context node.
        self.collected: dict[int, tuple[object, list[LoweredTool]]] | None = None

    @property
    def sources(self) -> SourceCache:
        """The parse cache (created on first use, so loading the plugin imports nothing)."""
        if self._sources is None:
            from .source import SourceCache

            self._sources = SourceCache()
            self._sources.set_shadows(self.options.shadow_file or [])
        return self._sources

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        return self._wrapped_method_hook(fullname)

    def get_class_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        return self._wrapped_method_hook(fullname)

    def _wrapped_method_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        """``K.s`` / ``K().s`` where ``s`` is ``@tool`` over ``@staticmethod`` or ``@classmethod``.

        mypy hands ``tool`` the plain function of such a method, so its ``Tool`` type keeps
        ``cls`` (class method) and ``Tool.__get__`` binds the first parameter on instance
        access (static method): call sites would not type-check. The runtime binds neither
        (``cls`` is the class, a static method takes all its arguments), so the hook gives
        the attribute the decorated function's own signature, ``cls`` left out.
        """
        if fullname in self._wrapped:
            found = self._wrapped[fullname]
        else:
            found = self._wrapped[fullname] = self._find_wrapped(fullname)
        if found is None:
            return None
        kind, dec = found

        def hook(ctx: AttributeContext) -> Type:
            try:
                return _unbound_tool_type(kind, dec) or ctx.default_attr_type
            except Exception:
                if os.environ.get("ONELLM_MYPY_DEBUG"):
                    raise
                return ctx.default_attr_type

        return hook

    def _find_wrapped(self, fullname: str) -> tuple[str, Decorator] | None:
        if self._modules is None or "." not in fullname:
            return None
        from .names import symbol_of_fullname

        try:
            sym = symbol_of_fullname(fullname, self._modules)
        except Exception:
            return None
        dec = sym.node if sym is not None else None
        if not isinstance(dec, Decorator):
            return None
        decos = dec.original_decorators
        if len(decos) != 2 or tool_decorator_index(decos[:1]) != 0:
            return None
        below = ref_fullname(decos[1])
        if below == STATIC:
            return "static", dec
        if below == CLASSMETHOD:
            return "class", dec
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == _TOOL_CALL:
            return self._on_tool
        if fullname == _FACTORY_CALL:
            return self._on_factory
        if fullname == _CREATE:
            return self._on_create
        return None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == _TOOL_SET:
            return self._on_tool_set
        return None

    def _on_tool_set(self, ctx: FunctionContext) -> Type:
        """``ToolSet(...)``: OLT007 at each argument that repeats a tool name (``toolsets``); a
        failure is a note at the call, as for a tool (``ONELLM_MYPY_DEBUG``: raised)."""
        try:
            self._check_tool_set(ctx)
        except Exception as e:
            if os.environ.get("ONELLM_MYPY_DEBUG"):
                raise
            from .codes import UNCHECKED

            note = f"ToolSet(...) was not checked ({_unchecked_reason(e)}); OLT007 was skipped for it"
            ctx.api.msg.note(note, ctx.context, code=UNCHECKED)
        return ctx.default_return_type

    def _check_tool_set(self, ctx: FunctionContext) -> None:
        tree = getattr(ctx.api, "tree", None)
        call = ctx.context
        if not isinstance(tree, MypyFile) or not isinstance(call, CallExpr) or self._modules is None:
            return
        from .mypy_front import Frontend, RecordMemo
        from .toolsets import tool_set_findings

        if self._memo is None:
            self._memo = RecordMemo()
        fe = Frontend(self._modules, self.sources, self._memo)
        scope = getattr(ctx.api, "scope", None)
        function = scope.current_function() if scope is not None else None
        for code, message, loc in tool_set_findings(fe, call, function):
            ctx.api.fail(message, loc, code=ERROR_CODES[code])
        module = tree.fullname
        read = fe.deps - {module}
        if read:  # as for a tool: a change to a tool named here re-checks this module
            self._deps.setdefault(module, set()).update(read)
            if not _INDIRECT_DEPS_HOOK:
                refs = getattr(ctx.api, "module_refs", None)
                if isinstance(refs, set):
                    refs.update(read)
            for dep in read:
                tree.plugin_deps.setdefault(f"<{dep}[wildcard]>", set()).add(module)

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        if fullname == _TOOL_CALL:
            return self._on_tool_signature
        return None

    def _on_tool_signature(self, ctx: MethodSigContext) -> FunctionLike:
        """``@tool("search")`` and ``@tool(args_schema=...)``: no overload takes them, so mypy runs
        ``_on_tool`` only while it tries each (its errors discarded) and no other hook; this hook
        comes first, where a report is kept."""
        _noting_failures(ctx, lambda: self._refused_call(ctx))
        return ctx.default_signature

    def _refused_call(self, ctx: MethodSigContext) -> None:
        call = ctx.context
        if not isinstance(call, CallExpr) or not call.args:
            return  # ``@tool`` itself, ``@tool()``: nothing refused
        tree = getattr(ctx.api, "tree", None)
        if not isinstance(tree, MypyFile) or self._modules is None:
            return
        self._follow_deletions()
        from .sites import refused_call, refused_call_findings

        if not refused_call(call):
            return
        from .mypy_front import Frontend, RecordMemo

        if self._memo is None:
            self._memo = RecordMemo()
        fe = Frontend(self._modules, self.sources, self._memo)
        refused = refused_call_findings(fe, call, tree, tree.fullname)
        if refused is not None:
            func, findings = refused
            for code, message in findings:
                ctx.api.fail(message, func, code=ERROR_CODES[code])

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """The modules a tool's types and metadata were read from, so a change there re-checks it."""
        return self._deps.pop(file.fullname, set()) - {file.fullname}

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Record a digest of the module's source in its symbol table (no extra dependencies).

        mypy's cache and the daemon's change detection see analysed types, not the
        ``Annotated`` metadata, docstrings and defaults the static side reads from the
        source. A module-level symbol named after a digest of those (``onellm@<hex>``,
        see ``source.source_digest``) makes a change to them a change of the module's
        interface: its dependents are re-checked (directly, through
        ``get_additional_indirect_deps`` in incremental mode, and through a wildcard
        trigger with the daemon). Names containing ``@`` are kept when the daemon strips
        a module, and never clash with a Python name. Called after parsing, so only for
        modules mypy actually reprocesses; library and stub modules are left alone.
        """
        self.new_generation()  # a module (re)parsed: what was lowered before may be stale
        # What its tools read when the daemon last re-checked them, never asked for since: the
        # module's own check now reports afresh (a stale entry could name a module deleted
        # later in the same update, which the daemon would then look up and not find).
        self._deps.pop(file.fullname, None)
        try:
            _keep_text_of_fileless(self.sources, file)
            if self._digests:
                self._record_digest(file)
            if _imports_onellm(file):
                self._read_ahead(file)
        except Exception:
            if os.environ.get("ONELLM_MYPY_DEBUG"):
                raise
        return []

    def _read_ahead(self, file: MypyFile) -> None:
        """Parse a module that imports onellm, and import the front end, while mypy loads the build.

        Its hooks would do both on first use anyway; done here, the parsed trees and the front
        end's modules are made while mypy keeps its garbage collector paused (it does while it
        parses, then moves what was made to the oldest generation), rather than while it checks,
        where they would start a collection that scans every young object of mypy's own.
        """
        path = file.path
        if path.endswith(".py") and not _is_library(path) and file.fullname.split(".")[0] not in _OWN:
            self.sources.module(path)
        from . import reporting  # noqa: F401  (what the first hook imports)

    def new_generation(self) -> None:
        """Forget what was lowered and re-check file stamps: the sources may have changed."""
        self._memo = None
        self._wrapped.clear()
        self._lowered.clear()
        self._generation_size = len(self._modules) if self._modules is not None else -1
        if self._sources is not None:
            self._sources.new_generation()
            self._sources.set_shadows(self.options.shadow_file or [])

    def _follow_deletions(self) -> None:
        """A new generation when the daemon deleted a module since this one began.

        An update that only deletes a module parses nothing, so ``get_additional_deps`` does
        not start a generation; what was lowered from the deleted module (an alias, a record)
        and the parsed source of its file would otherwise be reused by the tools re-checked.
        """
        if self._daemon and self._modules is not None and len(self._modules) != self._generation_size:
            self.new_generation()

    def _record_digest(self, file: MypyFile) -> None:
        path = file.path
        if not path.endswith(".py") or _is_library(path) or file.fullname.split(".")[0] in _OWN:
            return
        ms = self.sources.module(path)
        if ms is None:
            return
        from .source import source_digest

        for name in [n for n in file.names if n.startswith(_DIGEST_PREFIX)]:
            del file.names[name]
        var = Var(_DIGEST_PREFIX + source_digest(ms))
        var._fullname = f"{file.fullname}.{var.name}"
        file.names[var.name] = SymbolTableNode(GDEF, var, module_public=False)

    # -- hooks ------------------------------------------------------------------------

    def _on_tool(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "bare")
        return ctx.default_return_type

    def _on_factory(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "factory")
        return ctx.default_return_type

    def _on_create(self, ctx: MethodContext) -> Type:
        self._guarded(ctx, "create")
        return ctx.default_return_type

    def _guarded(self, ctx: MethodContext, kind: str) -> None:
        _noting_failures(ctx, lambda: self._handle(ctx, kind))

    def _handle(self, ctx: MethodContext, kind: str) -> None:
        tree = getattr(ctx.api, "tree", None)
        context = ctx.context
        if not isinstance(tree, MypyFile) or self._modules is None:
            return
        # Decide cheaply whether this call is the one that handles a tool.
        if isinstance(context, (Decorator, ClassDef)):
            decos = context.original_decorators if isinstance(context, Decorator) else context.decorators
            i = tool_decorator_index(decos)
            if i is None or kind == "create":
                return
            # The innermost @tool's own hook handles the whole definition (once).
            if (kind == "factory") != isinstance(decos[i], CallExpr):
                return
            if kind == "bare" and _is_tool_instance(ctx):
                return
        elif isinstance(context, CallExpr):
            if kind == "factory" or not context.args or context.arg_kinds[0] != ARG_POS:
                return  # no function given first: tool(name=...) builds a factory, whose own hook comes next
            if kind == "bare" and not is_tool_ref(context.callee):
                return
        else:
            return

        from .reporting import Frontend, RecordMemo, class_tool, create_tool, decorator_tools, report

        self._follow_deletions()
        module = tree.fullname
        if self._memo is None:
            self._memo = RecordMemo()
        if module != self._lowered_module:
            self._lowered.clear()
            self._lowered_module = module
        fe = Frontend(self._modules, self.sources, self._memo)
        found: list[LoweredTool] = []
        reported: list[tuple[str, Context, str]] = []

        def fail(message: str, loc: Context, code: str) -> None:
            ctx.api.fail(message, loc, code=ERROR_CODES[code])
            reported.append((message, loc, code))

        seen = self._lowered.get(id(context)) if isinstance(context, Decorator) else None
        if seen is not None and seen[0] is context:
            found = seen[1]
            fe.deps.update(seen[2])
            for message, loc, code in seen[3]:
                fail(message, loc, code)
        else:
            if isinstance(context, Decorator):
                found = decorator_tools(fe, context, module)
            elif isinstance(context, ClassDef):
                one = class_tool(fe, context, module)
                found = [one] if one is not None else []
            else:
                fn_type = ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
                one = create_tool(fe, context, module, with_options=kind == "create", fn_type=fn_type)
                found = [one] if one is not None else []
            for lowered in found:
                lowered.findings = report(fe, lowered, module, fail, context)
            if isinstance(context, Decorator):
                self._lowered[id(context)] = (context, found, frozenset(fe.deps), reported)
        if self.collected is not None:
            top = _at_module_or_class_level(ctx)
            for lowered in found:
                lowered.listed = lowered.listed and top
            self.collected[id(context)] = (context, found)
        read = fe.deps - {module}
        if read:
            self._deps.setdefault(module, set()).update(read)
            if not _INDIRECT_DEPS_HOOK:  # older mypy: its checker's module references feed the same set
                refs = getattr(ctx.api, "module_refs", None)
                if isinstance(refs, set):
                    refs.update(read)
            for dep in read:  # the daemon re-checks this module's top level when ``dep``'s digest changes
                tree.plugin_deps.setdefault(f"<{dep}[wildcard]>", set()).add(module)


_RUNTIME_SECTION = "onellm_runtime.*"


def _follow_runtime(options: Options) -> None:
    """With ``follow_imports = skip``, still follow ``onellm_runtime`` (silently).

    Skipped, ``tool`` would be an ``Any``: no hook would fire and every tool would go
    unchecked without a word. Following the package costs little and lets the plugin check
    what it can (types from skipped modules are ``Any`` to it, as to mypy). A section the
    user wrote for ``onellm_runtime`` itself is left as written.
    """
    if options.follow_imports != "skip":
        return
    if any(key == "onellm_runtime" or key.startswith("onellm_runtime.") for key in options.per_module_options):
        return
    # A new dict, not an update: the daemon compares later runs' options with a snapshot
    # that shares this one.
    options.per_module_options = {**options.per_module_options, _RUNTIME_SECTION: {"follow_imports": "silent"}}
    options._per_module_cache = None  # rebuilt on the next clone_for_module


def _keep_text_of_fileless(sources: SourceCache, file: MypyFile) -> None:
    """A module with no file (``mypy -c PROGRAM``): keep the text mypy parsed it from.

    mypy keeps that text only in the module's build state, which no plugin API reaches;
    the state is the object that holds the freshly parsed tree, found through the garbage
    collector's referrers (cheap here: this runs right after parsing).
    """
    path = file.path
    if not path or path.endswith((".py", ".pyi")) or path in sources.texts:
        return
    import gc

    for holder in gc.get_referrers(file):
        text = getattr(holder, "source", None)
        if getattr(holder, "tree", None) is file and isinstance(text, str):
            sources.texts[path] = text
            return


def _noting_failures(ctx: MethodContext | MethodSigContext, action: Callable[[], None]) -> None:
    """Run a hook's work; a failure (CannotLower, RecursionError, or anything unforeseen) becomes
    a note at the call, never silence and never a crash of mypy (``ONELLM_MYPY_DEBUG``: raised)."""
    try:
        action()
    except Exception as e:
        if os.environ.get("ONELLM_MYPY_DEBUG"):
            raise
        try:
            _note_unchecked(ctx, e)
        except Exception:
            pass


def _note_unchecked(ctx: MethodContext | MethodSigContext, error: Exception) -> None:
    """Say at the tool that it was not checked, and why (a tool is never silently skipped)."""
    from .codes import UNCHECKED
    from .decorators import tool_decorator_index

    context = ctx.context
    if isinstance(context, Decorator):
        if tool_decorator_index(context.original_decorators) is None:
            return
        what = f"'{context.func.name}'"
    elif isinstance(context, ClassDef):
        what = f"'{context.name}'"
    elif isinstance(context, CallExpr):
        what = "at this call"
    else:
        return
    ctx.api.msg.note(unchecked_message(what, error), context, code=UNCHECKED)


def unchecked_message(what: str, error: Exception) -> str:
    """The note for a tool the plugin could not read (docs/diagnostics.md, "Tools the plugin could not check")."""
    return f"Tool {what} was not checked ({_unchecked_reason(error)}); OLT001-OLT015 were skipped for it"


def _unchecked_reason(error: Exception) -> str:
    from .mypy_front import CannotLower

    return str(error) if isinstance(error, CannotLower) else f"internal error {type(error).__name__}: {error}"


def _unbound_tool_type(kind: str, dec: Decorator) -> Type | None:
    """The ``Tool`` type a static or class method tool has on the class and on its instances."""
    t = get_proper_type(dec.var.type)
    if not isinstance(t, Instance) or t.type.fullname != TOOL_CLASS or len(t.args) != 2:
        return None
    params = t.args[0]
    if kind == "class":
        p = get_proper_type(params)
        if not isinstance(p, Parameters) or not p.arg_types:
            return None
        params = p.copy_modified(arg_types=p.arg_types[1:], arg_kinds=p.arg_kinds[1:], arg_names=p.arg_names[1:])
    return t.copy_modified(args=[params, t.args[1]])


def _at_module_or_class_level(ctx: MethodContext) -> bool:
    """Checked at module level or in a module-level class body: where ``vars()`` holds tools."""
    from mypy.nodes import FuncItem, TypeInfo

    stack = getattr(getattr(ctx.api, "scope", None), "stack", None)
    if not isinstance(stack, list):
        return False
    return not any(isinstance(e, FuncItem) for e in stack) and sum(isinstance(e, TypeInfo) for e in stack) <= 1


def _imports_onellm(file: MypyFile) -> bool:
    """Whether a module imports from ``onellm_runtime`` by name (where its tools most often come from)."""
    for imp in file.imports:
        if isinstance(imp, (ImportFrom, ImportAll)):
            if imp.relative == 0 and imp.id.split(".")[0] == "onellm_runtime":
                return True
        elif isinstance(imp, Import) and any(name.split(".")[0] == "onellm_runtime" for name, _ in imp.ids):
            return True
    return False


def _is_library(path: str) -> bool:
    parts = os.path.normpath(path).split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts or "typeshed" in parts


def _is_tool_instance(ctx: MethodContext) -> bool:
    """The decorated value is already a Tool: an outer ``@tool`` of ``@tool @tool``."""
    if not ctx.arg_types or not ctx.arg_types[0]:
        return False
    t = get_proper_type(ctx.arg_types[0][0])
    return isinstance(t, Instance) and t.type.fullname == TOOL_CLASS
