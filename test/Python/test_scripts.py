#===- test_scripts.py - the shell scripts parse and keep their statuses --===#
"""Every scripts/*.sh and .ci/run parses (bash -n), and none passes $? to a
command after a command substitution in the same command: the substitution
runs first and resets $? to its own status, which is how device-run.sh
reported every failure of the GPU execution tests as ok (fixed in
685df5b). Take the status into a variable first."""
import glob
import re
import subprocess
import unittest

import _support as S

# A "$(...)" or `...` earlier on the line than a $? argument.
LATE_STATUS = re.compile(r"(\$\(|`).*\s\"?\$\?")


def scripts():
    return sorted(glob.glob(str(S.ROOT / "scripts" / "*.sh"))) + [str(S.ROOT / ".ci" / "run")]


class ShellScripts(unittest.TestCase):
    def test_they_parse(self):
        for path in scripts():
            with self.subTest(script=path):
                r = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_no_status_after_a_substitution(self):
        for path in scripts():
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    code = line.split(" #", 1)[0]
                    if code.lstrip().startswith("#"):
                        continue
                    with self.subTest(line="%s:%d" % (path, number)):
                        self.assertIsNone(LATE_STATUS.search(code), line.rstrip())

    def test_the_pattern_catches_the_old_line(self):
        self.assertIsNotNone(LATE_STATUS.search('      step "$(basename "$t")" $?'))
        self.assertIsNone(LATE_STATUS.search('      step "$(basename "$t")" $rc'))
        self.assertIsNone(LATE_STATUS.search('      step "memcheck" $?'))


if __name__ == "__main__":
    unittest.main()
