print("bgemu")
