"""A custom Authorizer for the hostile-input tests: allows everything but the cellguard LLM
resource, and writes each question it is asked to $CELLGUARD_TEST_AUTH_LOG."""

import os

from jupyter_server.auth import Authorizer


class DenyCellguardLLM(Authorizer):
    def is_authorized(self, handler, user, action, resource):
        with open(os.environ["CELLGUARD_TEST_AUTH_LOG"], "a") as log:
            log.write(f"{action} {resource}\n")
        return resource != "cellguard_llm"
