"""One annotation text written in several scopes: each resolves where it is written.

The static side remembers what an annotation's text lowers to, per module, class and
laziness; these tools would share one schema if that memo ignored the scope.
"""

from typing import Literal

from onellm_runtime import tool

Choice = Literal["module"]


class Left:
    Choice = Literal["left"]

    @tool
    def pick_left(self, choice: Choice) -> Choice:
        """Pick on the left."""
        return choice


class Right:
    Choice = Literal["right"]

    @tool
    def pick_right(self, choice: Choice) -> Choice:
        """Pick on the right."""
        return choice

    @tool
    def pick_lazily(self, choice: "Choice") -> str:
        """A string annotation resolves in the module's globals, not the class body."""
        return str(choice)


@tool
def pick_module(choice: Choice) -> Choice:
    """Pick at module level."""
    return choice
