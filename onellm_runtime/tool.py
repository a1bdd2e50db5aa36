"""``Tool``, the ``@tool`` decorator, and ``tools_of``.

A ``Tool`` is built from a function in three steps that never mix: lower it into the
model (``typing_front``), check the model (``diagnostics``, which raises here as
``ToolDefinitionError``), write its schemas (``schema``). The binder is compiled from the
same model on first use. Methods are finished when their class is created
(``__set_name__``), because only then is the class (and its type parameters) known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import FunctionType, MappingProxyType
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    NoReturn,
    TypeVar,
    cast,
    overload,
)

from typing_extensions import ParamSpec, Self

from .core.options import DEFAULT_OPTIONS, OPTION_NAMES, ToolOptions, given_options

if TYPE_CHECKING:
    from .binding import Binder
    from .core import diagnostics, schema
    from .core.model import Returns, ToolModel
    from .front import typing_front
else:
    diagnostics = schema = typing_front = None  # see _load_core

# The core (typing_front, diagnostics, schema, rules and the model under them) is imported
# where a tool is first described, not here: ``import onellm_runtime`` stays light for code
# that only uses results and annotations, as the binder and the invoker are imported on
# first use. Its import is paid by the first tool (figures in benchmarks/README.md).


def _load_core() -> None:
    """Import the core once, into this module's globals: an import statement in the build
    path would cost each tool a look-up in ``sys.modules`` and the import machinery."""
    global diagnostics, schema, typing_front
    from .core import diagnostics, schema
    from .front import typing_front


__all__ = ["Tool", "ToolDefinitionError", "tool", "tools_of"]

P = ParamSpec("P")
P2 = ParamSpec("P2")
R = TypeVar("R", covariant=True)
R2 = TypeVar("R2")
S = TypeVar("S")


class _Unset:
    """The type of ``_UNSET``: a value not worked out yet (where None is a value)."""


_UNSET = _Unset()


class ToolDefinitionError(TypeError):
    """A function that cannot be a tool, with the contract's OLT code.

    ``code`` is the first finding's; ``diagnostics`` holds every finding, and the message
    lists them all, one per line.
    """

    def __init__(self, findings: list[diagnostics.Diagnostic]) -> None:
        self.diagnostics = findings
        self.code: str = findings[0].code
        super().__init__("\n".join(f"{d.message}  [{d.code}]" for d in findings))


def _raise_findings(findings: list[diagnostics.Diagnostic]) -> None:
    if findings:
        raise ToolDefinitionError(findings)


def _is_method_qualname(fn: Callable[..., Any]) -> bool:
    parts = getattr(fn, "__qualname__", "").split(".")
    return len(parts) >= 2 and parts[-2] != "<locals>"


def _described(fn: Any) -> Any:
    """The function a tool is described from: ``fn``, or the function under decorators that say
    they keep its signature (``functools.wraps`` sets ``__wrapped__``), as ``inspect.signature``
    reads it. ``fn`` itself is what a call runs. The mypy plugin reads the ``def`` alike."""
    inner: Any = fn
    for _ in range(100):  # a chain that long is a cycle or a proxy answering every attribute
        nxt: Any = getattr(inner, "__wrapped__", None)
        if nxt is None or nxt is fn or _opaque(inner) or not callable(nxt):
            break
        inner = nxt
    return inner


def _opaque(obj: object) -> bool:
    """Wrappers whose ``__wrapped__`` ``Tool._from`` sorts out itself (or reports)."""
    return isinstance(obj, (Tool, staticmethod, classmethod))


def _plain_function(fn: object) -> bool:
    """A module-level function that ``Tool._from``'s chain would take as it is (binding
    "function"): not a method by its qualified name, no overload stub, no bound method."""
    return (
        type(fn) is FunctionType
        and "." not in fn.__qualname__
        and fn.__name__ != "_overload_dummy"
        and not (hasattr(fn, "__func__") and hasattr(fn, "__self__"))
    )


def _unresolved_where(fn: Any, missing: str) -> str:
    """``"Parameter 'x': "`` (or ``"Return type: "``) for the string annotation naming ``missing``."""
    for name, annotation in getattr(fn, "__annotations__", {}).items():
        if isinstance(annotation, str):
            words = "".join(c if c.isalnum() or c == "_" else " " for c in annotation).split()
            if missing in words or annotation == missing:
                return "Return type: " if name == "return" else f"Parameter '{name}': "
    return ""


_BASEMODEL = "pydantic.main.BaseModel"


def _is_pydantic_model(cls: type) -> bool:
    """A pydantic ``BaseModel`` subclass, told by its MRO's full names (pydantic is not imported)."""
    return any(f"{c.__module__}.{c.__qualname__}" == _BASEMODEL for c in cls.__mro__[1:])


def _declare_class_var(owner: type, attr: str) -> None:
    """Declare a tool method of a pydantic model a ``ClassVar`` in the class's annotations.

    pydantic takes every unannotated class attribute that is not a function, property,
    classmethod or staticmethod for a field without a type, and refuses the class; its
    message advises annotating such an attribute as a ``ClassVar``. ``__set_name__`` runs
    after the class body and before pydantic collects the fields, so the tool is declared
    here, as the user would have: pydantic then leaves it a class attribute, not a field.
    """
    from typing import ClassVar

    annotations: dict[str, object] = owner.__annotations__  # the class's own (made empty if it had none)
    annotations.setdefault(attr, ClassVar[Tool[..., Any]])


class Tool(Generic[P, R]):
    """A function offered to a model: its schemas, its metadata, and a strict binder.

    Calling a ``Tool`` calls the function with its own signature. As a class attribute
    it is a descriptor: ``Cls.method`` is the unbound tool, ``obj.method`` a tool bound
    to ``obj`` whose schema never contains ``self``.
    """

    fn: Callable[..., Any]
    """The underlying function (for a method: the plain function, taking ``self``)."""

    # What most tools never set, or set only once finished: class-level defaults, so that
    # making a tool stores only what it was given (a module may make thousands).
    _owner: object = None  # the instance or class the first argument is bound to
    _model: ToolModel | None = None
    _input_schema: dict[str, Any] | None = None
    _output_schema: dict[str, Any] | _Unset | None = _UNSET  # written when first asked for
    _binder: Binder | None = None
    _name: str | None = None
    _class_type_params: tuple[str, ...] = ()
    _class_scope: Mapping[str, object] = MappingProxyType({})  # a PEP 695 class's type parameters

    def __init__(self, fn: Callable[P, R], options: ToolOptions, *, binding: str, owner: object = None) -> None:
        # binding: "function", "method" (self in fn), "classmethod", "staticmethod", "bound"
        self.fn = fn
        self._described: Any = _described(fn)  # whose signature, annotations and docstring describe the tool
        self._options = options
        self._binding = binding
        if owner is not None:
            self._owner = owner
        code = getattr(fn, "__code__", None)
        self.is_async: bool = bool(code is not None and code.co_flags & 0x80)
        if self._described is not fn and not self.is_async:
            # A sync wrapper around an ``async def`` returns its coroutine: awaited all the same.
            inner = getattr(self._described, "__code__", None)
            self.is_async = bool(inner is not None and inner.co_flags & 0x80)
        self.__wrapped__ = fn
        self.__doc__ = getattr(self._described, "__doc__", None)
        self.__name__: str = getattr(fn, "__name__", "tool")
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__module__ = getattr(fn, "__module__", __name__)

    # -- construction ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        fn: Callable[P2, R2],
        name: str | None = None,
        description: str | None = None,
        ends_loop: bool = False,
        requires_approval: bool = False,
        parallel_safe: bool = True,
        timeout_seconds: float = 0,
        naming: str | None = None,
        invocation_mode: str = "wait",
    ) -> Tool[P2, R2]:
        """Make a tool of ``fn`` (a function, a bound method, or a static/class method)."""
        options = given_options(
            name, description, ends_loop, requires_approval, parallel_safe, timeout_seconds, naming, invocation_mode
        )
        return cls._from(fn, options)

    def _lower(self, final: bool) -> ToolModel | None:
        if typing_front is None:
            _load_core()
        fn: Any = self._described
        try:
            model = typing_front.lower_function(
                fn,
                skip_first=self._binding in ("method", "classmethod", "bound"),
                options=self._options,
                class_type_params=self._class_type_params,
                localns=self._class_scope or None,
            )
        except typing_front.InvalidAnnotation as e:
            where = "Return type: " if e.name == "return" else f"Parameter '{e.name}': " if e.name else ""
            if not e.name:
                where = _unresolved_where(fn, e.text)
            raise ToolDefinitionError(
                [
                    diagnostics.Diagnostic(
                        "OLT002", f"Tool '{self.name}': {where}{diagnostics.invalid_annotation(e.text)}"
                    )
                ]
            ) from None
        except typing_front.Unresolved as e:
            if not final:
                return None
            raise ToolDefinitionError(
                [
                    diagnostics.Diagnostic(
                        "OLT002",
                        f"Tool '{self.name}': {_unresolved_where(fn, str(e))}the annotation {str(e)!r} cannot be "
                        "resolved; import the type at module level (not only under TYPE_CHECKING)",
                    )
                ]
            ) from None
        _raise_findings(diagnostics.check_tool(model))
        return model

    def _finish(self, final: bool) -> None:
        """Lower, check and describe the tool; ``final=False`` may defer unresolved names."""
        if self._model is not None:
            return
        model = self._lower(final)
        if model is None:
            return
        self._input_schema = schema.input_schema(model)
        self._model = model

    @property
    def model(self) -> ToolModel:
        """The neutral model of this tool (lowered and checked on first use if deferred)."""
        if self._model is None:
            self._finish(final=True)
            assert self._model is not None
        return self._model

    # -- what a model and a host see ------------------------------------------------

    @property
    def name(self) -> str:
        name = self._name
        if name is None:  # worked out once: the invoker asks on every call
            from .core.rules import snake_case

            o = self._options
            name = self._name = o.name if o.name is not None else snake_case(self.__name__)
        return name

    @property
    def description(self) -> str:
        from .core.rules import tool_description

        return tool_description(self.model)

    @property
    def input_schema(self) -> dict[str, Any]:
        found = self._input_schema
        if found is None:
            _ = self.model  # finish (or raise) a tool deferred at creation
            found = self._input_schema
            assert found is not None
        return found

    @property
    def output_schema(self) -> dict[str, Any] | None:
        found = self._output_schema
        if isinstance(found, _Unset):  # most callers never ask: written on first use
            model = self.model  # (which imports the core, schema among it)
            found = self._output_schema = schema.output_schema(model)
        return found

    @property
    def ends_loop(self) -> bool:
        return self._options.ends_loop

    @property
    def requires_approval(self) -> bool:
        return self._options.requires_approval

    @property
    def parallel_safe(self) -> bool:
        return self._options.parallel_safe

    @property
    def timeout_seconds(self) -> float:
        return self._options.timeout_seconds

    @property
    def invocation_mode(self) -> str:
        return self._options.invocation_mode

    @property
    def returns(self) -> Returns:
        return self.model.returns

    def __repr__(self) -> str:
        return f"<Tool {self.name!r} of {self.__qualname__}>"

    # -- binding and calling --------------------------------------------------------

    def bind(self, arguments: str | bytes | Mapping[str, object], provider: str | None = None) -> dict[str, object]:
        """Strictly bind a model's arguments; the keyword arguments to call the function with.

        Raises ``ArgumentError`` (with ``.path``) when the arguments do not fit the schema,
        and ``ValueError`` at once for a ``provider`` other than None, "openai", "anthropic",
        "gemini" or "mcp".
        """
        if provider is not None:
            from .provider_names import check_provider

            check_provider(provider)
        binder = self._binder
        if binder is None:
            from .binding import compile_binder

            binder = self._binder = compile_binder(self.model)
        return binder(arguments, provider)

    def call_with(self, arguments: Mapping[str, object]) -> Any:
        """Call the function with bound keyword arguments (positional-only ones are placed)."""
        fn: Any = self.fn
        code = self._described.__code__  # a wrapper's (*args, **kwargs) hides what is positional-only
        posonly = code.co_posonlyargcount
        lead: list[object] = []
        if self._binding in ("bound", "classmethod"):
            lead.append(self._owner)
            names = code.co_varnames[1:posonly] if posonly else ()
        else:
            names = code.co_varnames[:posonly] if posonly else ()
        if names and any(n in arguments for n in names):
            kwargs = dict(arguments)
            lead.extend(kwargs.pop(n) for n in names if n in kwargs)
            return fn(*lead, **kwargs)
        return fn(*lead, **arguments)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._binding in ("bound", "classmethod"):
            return self.fn(self._owner, *args, **kwargs)  # type: ignore[no-any-return]
        return self.fn(*args, **kwargs)  # type: ignore[no-any-return]

    # -- the descriptor -------------------------------------------------------------

    def __set_name__(self, owner: type, attr: str) -> None:
        if self._binding == "function":
            return
        if _is_pydantic_model(owner):
            _declare_class_var(owner, attr)
        # Read the class's own namespace: Generic.__init_subclass__, which sets __parameters__,
        # runs only after __set_name__ (so getattr would miss Generic[T], or see a base's).
        namespace = owner.__dict__
        params = tuple(
            getattr(t, "__name__", str(t))
            for base in namespace.get("__orig_bases__", ())
            for t in getattr(base, "__parameters__", ())
        )
        params += tuple(getattr(t, "__name__", str(t)) for t in namespace.get("__type_params__", ()))
        self._class_type_params = tuple(dict.fromkeys(params))
        self._class_scope = {getattr(t, "__name__", str(t)): t for t in namespace.get("__type_params__", ())}
        if self._class_type_params:
            self._finish(final=True)  # OLT010 (and anything else) now, at class creation
        self._check_duplicates(owner)
        self._finish(final=False)

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self: Tool[Concatenate[S, P2], R2], obj: S, owner: type | None = None) -> Tool[P2, R2]: ...

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if self._binding == "classmethod":
            return self._bound_to(owner if owner is not None else type(obj))
        if obj is None or self._binding != "method":
            return self
        return self._bound_to(obj)

    def _bound_to(self, target: object) -> Tool[Any, Any]:
        _ = self.output_schema  # finish (or raise) before copying, so every bound copy shares the result
        bound: Tool[Any, Any] = cast(Any, object.__new__(Tool))
        bound.__dict__.update(self.__dict__)
        bound._binding = "bound" if self._binding == "method" else "classmethod"
        bound._owner = target
        return bound

    @classmethod
    def _from(cls, fn: Any, options: ToolOptions) -> Tool[Any, Any]:
        """``@tool`` and ``Tool.create``: sort out what was decorated, then build."""
        if _plain_function(fn):  # the usual case, sorted out at once: what the chain below concludes for it
            t: Tool[Any, Any] = Tool(fn, options, binding="function")
            t._finish(final=False)
            return t
        misapplied: str | None = None
        display_name: str = getattr(fn, "__name__", type(fn).__name__)
        owner: object = None
        func: Any = fn
        binding = "function"
        if isinstance(fn, (staticmethod, classmethod)):
            binding = "staticmethod" if isinstance(fn, staticmethod) else "classmethod"
            func = cast(Any, fn).__func__
        elif isinstance(fn, Tool):
            from .core.diagnostics import Diagnostic

            raise ToolDefinitionError([Diagnostic("OLT001", f"Tool '{fn.name}': @tool is applied twice; remove one")])
        elif isinstance(fn, str):  # @tool("search"): another library's positional name
            misapplied = "name"
            if options.name is None:
                options = replace(options, name=fn)
        elif isinstance(fn, type):
            misapplied = "class"
        elif isinstance(fn, property):
            misapplied = "property"
            display_name = getattr(fn.fget, "__name__", display_name)  # name the method, not 'property'
        elif hasattr(fn, "__func__") and hasattr(fn, "__self__"):  # a bound method: no self in the schema
            func, owner = fn.__func__, fn.__self__
            binding = "classmethod" if isinstance(owner, type) else "bound"
        elif getattr(fn, "__name__", None) == "_overload_dummy":
            misapplied = "overload"
            display_name = "<overload>"  # typing.overload returns a placeholder: the stub's name is gone
        elif not hasattr(_described(fn), "__code__"):
            misapplied = type(fn).__name__
        elif _is_method_qualname(_described(fn)):
            binding = "method"
        if misapplied is not None:
            from .core.diagnostics import check_tool
            from .core.model import Returns, ToolModel
            from .core.rules import snake_case

            name = options.name or snake_case(display_name)
            model = ToolModel(
                function_name=name,
                docstring=None,
                params=(),
                returns=Returns("none"),
                options=options,
                misapplied_to=misapplied,
            )
            _raise_findings(check_tool(model))
        t = Tool(func, options, binding=binding, owner=owner)
        if binding in ("function", "bound") or owner is not None:
            t._finish(final=False)  # a class member is finished by __set_name__
        return t

    def _check_duplicates(self, owner: type) -> None:
        """OLT007 for this tool against the tools defined before it in ``owner`` and those
        ``owner`` inherits (what ``tools_of`` would offer beside it)."""
        from .core.diagnostics import check_class
        from .core.model import ClassModel, Returns, ToolModel

        def named(t: Tool[Any, Any]) -> ToolModel:
            return ToolModel(
                function_name=t.__name__, docstring=None, params=(), returns=Returns("none"), options=t._options, loc=t
            )

        seen: list[ToolModel] = []
        for value in owner.__dict__.values():
            if not isinstance(value, Tool):
                continue
            other: Tool[Any, Any] = cast(Any, value)
            seen.append(named(other))
            if other is self:
                break
        inherited: dict[str, tuple[str, ToolModel]] = {}
        for klass in reversed(owner.__mro__[1:]):
            for attr, value in klass.__dict__.items():
                if isinstance(value, Tool):
                    inherited[attr] = (klass.__name__, named(cast(Any, value)))
                else:
                    inherited.pop(attr, None)  # a plain attribute hides a base's tool
        for attr in owner.__dict__:
            inherited.pop(attr, None)  # redefined here: an override, not a second tool
        model = ClassModel(owner.__name__, tuple(seen), tuple(inherited.values()))
        _raise_findings([d for d in check_class(model) if d.loc is self])

    @staticmethod
    def _of(obj: object) -> list[Tool[..., Any]]:
        cls = obj if isinstance(obj, type) else type(obj)
        found: dict[str, Tool[..., Any]] = {}
        for klass in reversed(cls.__mro__):
            for attr, value in klass.__dict__.items():
                if isinstance(value, Tool):
                    tool_: Tool[..., Any] = cast(Any, value)
                    tool_._check_duplicates(klass)
                    found[attr] = tool_
                elif isinstance(value, (staticmethod, classmethod)) and isinstance(
                    wrapped := cast(Any, value).__func__, Tool
                ):
                    # @staticmethod/@classmethod on top of @tool hides the tool from the class (OLT001).
                    from .core.diagnostics import check_tool
                    from .core.model import Returns, ToolModel

                    hidden: Tool[..., Any] = cast(Any, wrapped)
                    what = "staticmethod" if isinstance(value, staticmethod) else "classmethod"
                    model = ToolModel(
                        function_name=hidden.__name__,
                        docstring=None,
                        params=(),
                        returns=Returns("none"),
                        options=hidden._options,
                        misapplied_to=what,
                    )
                    _raise_findings(check_tool(model))
                elif attr in found:
                    del found[attr]
        return [value.__get__(None if isinstance(obj, type) else obj, cls) for value in found.values()]


def tools_of(obj: object) -> list[Tool[..., Any]]:
    """The ``@tool`` methods of an instance (or class), bound to it, in definition order.

    Base classes' tools come first; an override keeps its base's place.
    """
    return Tool._of(obj)  # pyright: ignore[reportPrivateUsage]


class _ToolFactory:
    """What ``tool(...)`` returns: applies its options to the function it decorates.

    A class rather than a closure so the mypy plugin can hook its ``__call__`` and see
    the decorated function (a closure's call has no hook to attach to).
    """

    __slots__ = ("_options",)

    def __init__(self, options: ToolOptions) -> None:
        self._options = options

    def __call__(self, fn: Callable[P2, R2], /) -> Tool[P2, R2]:
        return Tool._from(fn, self._options)  # pyright: ignore[reportPrivateUsage]


class _ToolDecorator:
    """``tool``: ``@tool`` or ``@tool(name=..., ...)``. An instance so mypy can hook its ``__call__``."""

    @overload
    def __call__(self, fn: Callable[P2, R2], /) -> Tool[P2, R2]: ...

    # The options spelled out for type checkers, as in ``Tool.create``: ``ToolOptions``'s
    # fields with their types and defaults (a test holds them equal).
    @overload
    def __call__(
        self,
        fn: None = None,
        /,
        *,
        name: str | None = None,
        description: str | None = None,
        ends_loop: bool = False,
        requires_approval: bool = False,
        parallel_safe: bool = True,
        timeout_seconds: float = 0,
        naming: str | None = None,
        invocation_mode: str = "wait",
    ) -> _ToolFactory: ...

    def __call__(self, fn: Callable[..., Any] | None = None, /, **given: Any) -> Any:
        if given:
            unknown = [k for k in given if k not in OPTION_NAMES]
            if unknown:  # another library's options (args_schema=...), or a misspelling: OLT001 at the def
                known = {k: v for k, v in given.items() if k in OPTION_NAMES}
                if fn is None:

                    def refuse(f: object, /) -> NoReturn:
                        _refuse_options(f, unknown, known)

                    return refuse
                _refuse_options(fn, unknown, known)
        options = given_options(**given) if given else DEFAULT_OPTIONS
        if fn is not None:
            return Tool._from(fn, options)  # pyright: ignore[reportPrivateUsage]
        return _ToolFactory(options)


def _refuse_options(fn: object, unknown: list[str], known: dict[str, Any]) -> NoReturn:
    """``@tool(args_schema=...)``: OLT001 for each option ``tool`` does not take, naming the tool
    (after the positional name's OLT001, for ``@tool("search", args_schema=...)``)."""
    from .core.diagnostics import Diagnostic, check_tool, unknown_options
    from .core.model import Returns, ToolModel
    from .core.rules import snake_case

    name = known.get("name")
    if not isinstance(name, str):
        name = fn if isinstance(fn, str) else snake_case(getattr(fn, "__name__", type(fn).__name__))
    found: list[Diagnostic] = []
    if isinstance(fn, str):
        options = ToolOptions(name=name)
        found += check_tool(ToolModel(name, None, (), Returns("none"), options=options, misapplied_to="name"))
    found += [Diagnostic(code, text) for code, text in unknown_options(name, unknown)]
    raise ToolDefinitionError(found)


tool: _ToolDecorator = _ToolDecorator()
