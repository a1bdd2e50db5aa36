"""Docstrings written the way MCP servers write them: the MCP Python SDK's examples, the MCP
reference servers (filesystem, fetch), a Blender MCP server and an AWS documentation MCP server.

Habits followed: a bulleted parameter list under ``Parameters:`` at the heading's own
indentation, with usage notes after it; markdown headings and lists in the description; Google
``Args:`` with ``Returns:`` after it; starred, backticked and bold parameter names; an entry for
the request context the runtime fills in; an entry naming a parameter the tool does not have.
Only the decorator is onellm's. Annotations are evaluated eagerly (no ``from __future__ import
annotations``).
"""

from onellm_runtime import ToolContext, tool


# Blender MCP server: a dash list under "Parameters:", not indented.
@tool
def get_object_info(object_name: str) -> str:
    """
    Get detailed information about a specific object in the Blender scene.

    Parameters:
    - object_name: The name of the object to get information about
    """
    return object_name


# Blender MCP server: a dash list with a wrapped entry, then usage notes that are lists too.
@tool
def generate_model_from_text(text_prompt: str, bbox_ratio: str = "") -> str:
    """
    Generate a 3D asset from a text description and import it into the scene.
    The asset has built-in materials.
    The generated model is normalized to size, so re-scale it after generation.

    Returns a message saying whether the job started.

    Parameters:
    - text_prompt: A short description of the wanted model in **English**.
    - bbox_ratio: Optional. Three numbers giving the [Length, Width, Height]
      ratio of the model, such as "1,1,2".

    For the hosted mode:
    - check the job with poll_job_status(subscription_key=...)
    For the self-hosted mode:
    - check the job with poll_job_status(request_id=...)
    """
    return text_prompt


# MCP SDK example: Google Args, one entry for the context the runtime fills in.
@tool
async def long_task(steps: int, ctx: ToolContext) -> str:
    """Run a task that reports its progress.

    Args:
        steps: How many steps to run.
        ctx: The request context, used to report progress.
    """
    return str(steps)


# AWS documentation MCP server: markdown headings and lists, then Args and Returns.
@tool
def read_documentation(url: str, max_length: int = 5000, start_index: int = 0) -> str:
    """Fetch a documentation page and convert it to markdown.

    ## Usage

    This tool fetches one page of the documentation and returns it as markdown.
    Long pages come in chunks: call it again with a larger start_index.

    ## URL requirements

    - The page must be on the documentation site
    - The address must end with .html

    ## Output

    The result holds:
    1. the page title
    2. the page text, as markdown

    Args:
        url: Address of the page to read
        max_length: Maximum number of characters to return
        start_index: Return the text from this character on, when
            an earlier call was cut short

    Returns:
        The page as markdown text
    """
    return url


# Filesystem reference server: a starred list under "Arguments:".
@tool
def edit_file(path: str, old_text: str, new_text: str, dry_run: bool = False) -> str:
    """Replace exact text in a file and return a git-style diff.

    Arguments:
        * path: The file to edit.
        * old_text: Text to find; it must match exactly,
          white space included.
        * new_text: Text to put in its place.
        * dry_run: Show the diff without writing the file.
    """
    return path


# Fetch reference server: backticked names in a dash list under an indented "Params:".
@tool
def fetch_page(url: str, raw: bool = False) -> str:
    """Fetch a URL and return its content, simplified to markdown.

    Although originally you did not have internet access, this tool lets you
    read pages as they are now.

        Params:
        - `url`: The URL to fetch.
        - `raw`: Return the HTML as it came, without simplifying it.
    """
    return url


# Blender MCP server: bold names in a dash list under an upper-case heading, then a note.
@tool
def set_texture(object_name: str, texture_id: str) -> str:
    """Apply a downloaded texture to an object.

    PARAMETERS:
    - **object_name**: Name of the object to apply the texture to
    - **texture_id**: Id of the texture, as the search returned it

    Notes:
        Download the texture first; an id that was never downloaded fails.
    """
    return texture_id


# Filesystem reference server: an entry that names no parameter of the tool.
@tool
def list_directory(path: str) -> str:
    """List the entries of a directory, marking each [FILE] or [DIR].

    Args:
        path: The directory to list.
        recursive: Not supported here; list each directory in turn.
    """
    return path
