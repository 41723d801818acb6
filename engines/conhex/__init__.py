"""ConHex: gems in holes claim cells; a chain of own cells between the own sides wins."""
