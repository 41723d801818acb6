"""The table: the game in progress on a board (session, scene, saving) and the loop that
runs it between the sensors, the LEDs and the screen."""
