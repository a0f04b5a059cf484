from hwflow.cli import main

main()
