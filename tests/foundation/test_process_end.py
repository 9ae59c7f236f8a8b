"""How govern's own process ends: the values a command kept for the end are never freed one by one (the process
ends at once, after its exit handlers and a flush of its output), while a program using govern as a library
keeps none."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import govern.process
from govern.cli import _exit_status
from govern.process import keep_until_exit, keeping_until_exit, release_kept


# Output to a pipe is buffered, as it is by default.
_BUFFERED = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          timeout=120, env=_BUFFERED)


# A command (`--version`) that keeps a value whose finalizer says when it is freed.
_KEPT_VALUE = """
    import sys
    import govern.cli, govern.process

    class Watched:
        def __del__(self):
            sys.stdout.write("freed\\n")

    command = govern.cli.cli

    def keeping(**options):
        with govern.process.keeping_until_exit():
            govern.process.keep_until_exit(Watched())
        return command(**options)

    govern.cli.cli = keeping
    sys.argv = ["govern", "--version"]
    govern.cli.{end}()
"""


def test_the_program_ends_without_freeing_what_was_kept():
    result = _python(_KEPT_VALUE.format(end="run"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("govern, version ")
    assert "freed" not in result.stdout


def test_a_process_that_returns_from_main_frees_it_at_shutdown():
    # (what `run` spares: the same value, when the interpreter shuts down as usual)
    result = _python(_KEPT_VALUE.format(end="main"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("govern, version ")
    assert result.stdout.endswith("freed\n")


def test_exit_handlers_run_and_output_is_flushed_before_the_end():
    result = _python("""
        import atexit, sys
        import govern.cli

        atexit.register(lambda: sys.stderr.write("handler ran\\n"))
        sys.stdout.write("buffered, never flushed by the caller")
        sys.argv = ["govern", "no-such-command"]
        govern.cli.run()
    """)
    assert result.returncode == 2  # click's usage error, passed through as the status
    assert "No such command" in result.stderr
    assert result.stderr.endswith("handler ran\n")
    assert result.stdout == "buffered, never flushed by the caller"


def test_a_reader_that_went_away_ends_the_program_quietly_with_the_commands_status():
    # The reader is gone before the child starts (the child takes far longer to start than this to close);
    # the output is still in the child's buffer when `run` flushes it.
    process = subprocess.Popen([sys.executable, "-c", "import sys, govern.cli\n"
                                "sys.stdout.write('unread output')\n"
                                "sys.argv = ['govern', 'no-such-command']\ngovern.cli.run()"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_BUFFERED)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=120) == 2  # the usage error's status
    assert "No such command" in stderr
    assert "BrokenPipeError" not in stderr and "Exception ignored" not in stderr


@pytest.mark.parametrize(("code", "status", "message"), [
    (None, 0, ""),
    (0, 0, ""),
    (1, 1, ""),
    (2, 2, ""),
    (130, 130, ""),
    (256, 0, ""),  # as the operating system keeps it: the low byte
    (-1, 255, ""),
    (True, 1, ""),
    ((1 << 40) + 3, 3, ""),  # (the interpreter's C int keeps the low bits, then the operating system the low byte)
    (1 << 70, 255, ""),  # beyond a C long
    ("refused: see above", 1, "refused: see above\n"),
])
def test_the_status_of_a_system_exit_is_the_interpreters(code, status, message, capsys):
    assert _exit_status(code) == status
    assert capsys.readouterr().err == message


def test_a_library_caller_keeps_nothing(monkeypatch):
    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", False)
    monkeypatch.setattr(govern.process, "_KEPT", [])
    with keeping_until_exit():
        keep_until_exit(object())
    assert govern.process._KEPT == []


def test_the_command_line_keeps_only_what_a_command_chose_to_keep(monkeypatch):
    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", True)
    monkeypatch.setattr(govern.process, "_KEPT", [])
    keep_until_exit(object())  # offered outside a command that keeps: freed as usual
    assert govern.process._KEPT == []
    value = object()
    with keeping_until_exit():
        keep_until_exit(value, "other")
    keep_until_exit(object())
    assert govern.process._KEPT == [(value, "other")]
    release_kept()
    assert govern.process._KEPT == []


def test_each_command_of_a_process_frees_what_the_one_before_kept(monkeypatch):
    from govern.cli import main

    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", True)
    monkeypatch.setattr(govern.process, "_KEPT", [("from an earlier command",)])
    monkeypatch.setattr(sys, "argv", ["govern", "--version"])
    threshold = __import__("gc").get_threshold()
    try:
        with pytest.raises(SystemExit):
            main()
    finally:
        __import__("gc").set_threshold(*threshold)
    assert govern.process._KEPT == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs a device that is always full (/dev/full)")
@pytest.mark.parametrize("status", [0, 1])
def test_output_that_cannot_be_written_is_named_with_the_interpreters_status(status):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
            import sys
            import govern.cli

            def writes(**options):
                sys.stdout.write("a report nobody can store")  # (buffered: written when the program ends)
                raise SystemExit({status})

            govern.cli.cli = writes
            govern.cli.run()
        """)], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, env=_BUFFERED)
    assert result.returncode == 120  # whatever the command's own status, as the interpreter ends
    assert "the output could not be written" in result.stderr and "No space left" in result.stderr


def test_a_message_of_system_exit_follows_the_output_written_before_it():
    result = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import sys
        import govern.cli

        def refuses(**options):
            sys.stdout.write("written first\\n")  # (buffered)
            sys.exit("then the refusal")

        govern.cli.cli = refuses
        govern.cli.run()
    """)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120, env=_BUFFERED)
    assert result.returncode == 1
    assert result.stdout == "written first\nthen the refusal\n"


def test_the_console_script_is_the_program_and_python_m_govern_ends_as_usual(tmp_path):
    from pathlib import Path

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["scripts"]["govern"] == "govern.cli:run"
    # A program hosting `python -m govern` (here the profiler) outlives it and finishes its own work.
    profile = tmp_path / "govern.prof"
    result = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "govern", "--version"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("govern, version ")
    assert profile.stat().st_size > 0


def test_ctrl_c_while_the_program_ends_ends_it_at_once():
    # A thread that is no daemon is waited for as the program ends; Ctrl-C arrives meanwhile. (The handler is
    # installed here: a process started in the background has SIGINT ignored.)
    result = _python("""
        import os, signal, sys, threading, time
        import govern.cli

        signal.signal(signal.SIGINT, signal.default_int_handler)

        def interrupts():
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)

        def starts(**options):
            threading.Thread(target=interrupts).start()
            raise SystemExit(0)

        govern.cli.cli = starts
        govern.cli.run()
    """)
    assert result.returncode == 130
    assert "Traceback" not in result.stderr
