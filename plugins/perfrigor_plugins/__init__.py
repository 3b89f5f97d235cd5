"""perfrigor's built-in method plugins, each registered through the ``perfrigor`` entry points."""
